// The e2e run's mail peer: a real SMTP server on loopback that keeps every message it receives as a
// file, so the browser tests read confirmation codes from the mail that arrived, as a person would.
// It runs in a process of its own because scripts/e2e.mjs waits for Playwright synchronously, and a
// server in that process could not answer meanwhile. Files are written whole (then renamed), so a
// reader never sees half a message.
import { spawn } from "node:child_process";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const self = fileURLToPath(import.meta.url);

/** Starts the sink, which writes `<n>.json` ({ to: string[], raw: string }) into `dir`. */
export async function startMailSink(dir) {
  mkdirSync(dir, { recursive: true });
  const child = spawn(process.execPath, [self, dir], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const m = /^listening (\d+)$/m.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once("exit", (code) => reject(new Error(`the mail sink exited with ${code} before it listened`)));
  });
  return {
    url: `smtp://127.0.0.1:${port}`,
    stop: () => {
      if (child.exitCode === null) child.kill("SIGTERM");
    },
  };
}

async function serve(dir) {
  const { SMTPServer } = await import("smtp-server");
  let count = 0;
  const server = new SMTPServer({
    // Plain loopback without credentials: nothing to negotiate.
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, done) {
      const chunks = [];
      stream.on("data", (c) => chunks.push(c));
      stream.on("end", () => {
        const name = String(++count).padStart(6, "0");
        const body = JSON.stringify({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString("latin1") });
        writeFileSync(path.join(dir, `${name}.tmp`), body);
        renameSync(path.join(dir, `${name}.tmp`), path.join(dir, `${name}.json`));
        done();
      });
    },
  });
  server.listen(0, "127.0.0.1", () => console.log(`listening ${server.server.address().port}`));
  process.on("SIGTERM", () => server.close(() => process.exit(0)));
}

if (process.argv[1] === self) await serve(process.argv[2]);
