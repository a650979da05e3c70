#!/usr/bin/env node
// The production server: one node:http server per process. Requests for an operation of the catalog
// go to the node:http transport (api-transport.mjs), which runs the operation's request core;
// every other request goes to Next through its documented custom-server API, which runs the same
// pipeline as `next start` (router-server, proxy.ts, instrumentation.ts) and, for an operation, the
// same core. IDP_FAST_PATH=0 sends everything to Next.
//
//   node server/serve/server.mjs [-p PORT] [-H HOSTNAME]      (after `npm run build`)
import { setInterval, clearInterval } from "node:timers";
import path from "node:path";
import { fileURLToPath } from "node:url";
import next from "next";
import { parseContextPath } from "../config/context-path.mjs";
import { hstsOf, SECURITY_HEADERS } from "../http/security-headers.mjs";
import { logLine as log } from "../log/line-writer.mjs";
import { apiTransport } from "./api-transport.mjs";
import { runClusterPrimary } from "./cluster.mjs";
import { threadPoolSize } from "./threadpool.mjs";
import { createListener, identify } from "./tls.mjs";

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");


function arg(short, long) {
  const argv = process.argv.slice(2);
  const i = argv.findIndex((a) => a === short || a === long);
  return i === -1 ? undefined : argv[i + 1];
}

const port = Number(arg("-p", "--port") ?? process.env.PORT ?? 3000);
// As with `next start`: listen on every address unless -H says otherwise; Next builds URLs with
// "localhost" then. Not $HOSTNAME, which `next start` ignores too: a container sets it to its own name.
const listenHost = arg("-H", "--hostname");
const hostname = listenHost ?? "localhost";
const contextPath = parseContextPath(process.env.IDP_CONTEXT_PATH);
if (!contextPath.ok) {
  process.stderr.write(`idp: cannot start: IDP_CONTEXT_PATH: ${contextPath.reason}\n`);
  process.exit(1);
}

const grace = process.env.IDP_SHUTDOWN_GRACE ?? "10";
if (!/^\d{1,4}$/.test(grace) || Number(grace) > 3600) {
  process.stderr.write(`idp: cannot start: IDP_SHUTDOWN_GRACE: must be a whole number of seconds between 0 and 3600 (got ${JSON.stringify(grace)})\n`);
  process.exit(1);
}
const graceMs = Number(grace) * 1000;
// IDP_WORKERS > 1: this process becomes the cluster's primary and never gets past this line; the
// workers it forks run this file again and go on, as does a single process.
await runClusterPrimary({ graceMs, log });

process.env.NODE_ENV ??= "production";
// instrumentation.ts publishes the operations into this slot once boot (migrations, change bus,
// signing key…) has finished (server/api/publish.ts); nothing is served before.
/** @type {Promise<import("./api-transport.mjs").TPublishedOperation[]>} */
const published = new Promise((resolve) => {
  /** @type {Record<symbol, unknown>} */ (globalThis)[Symbol.for("idp.operations")] = { resolve };
});
const app = next({ dev: false, dir, hostname, port });
await app.prepare();
const operations = await published;
const nextHandler = app.getRequestHandler();
const fast = process.env.IDP_FAST_PATH === "0" ? undefined : apiTransport({ operations, contextPath: contextPath.value, hostname, port });

// Set before either transport answers: node:http merges them into what the answer writes.
const everyAnswer = Object.entries({ ...SECURITY_HEADERS, ...(hstsOf() ? { "strict-transport-security": hstsOf() } : {}) });
const server = createListener((req, res) => {
  identify(req);
  for (const [name, value] of everyAnswer) res.setHeader(name, value);
  if (fast?.handle(req, res)) return;
  void nextHandler(req, res);
});
server.listen(port, listenHost, () => {
  log("info", "listening", { port, fastPath: fast ? "on" : "off", operations: operations.length, threadPool: threadPoolSize() });
  // What the node:http transport serves, by operation (test/api/fast-path-equivalence.test.ts compares it to the catalog).
  if (fast) log("debug", "fast path operations", { operations: operations.map((op) => `${op.method} ${op.path}`) });
});

// A clean stop on SIGTERM/SIGINT: stop accepting, let the requests in flight finish (idle keep-alive
// connections are closed at once, busy ones after their answer; whatever still runs at the deadline
// is cut), then Next closes, then boot's shutdown (server/boot/shutdown.ts) stops the background work
// and closes the database, which releases the embedded lock. A second signal exits at once.
async function stop(signal) {
  log("info", "stopping", { signal });
  const closed = new Promise((resolve) => server.close(resolve));
  // A keep-alive connection turns idle when its answer is written; close those as they appear.
  server.closeIdleConnections();
  const sweeper = setInterval(() => server.closeIdleConnections(), 100);
  const deadline = setTimeout(() => {
    log("warn", "requests still running at the shutdown deadline: connections closed", { graceMs });
    server.closeAllConnections();
  }, graceMs);
  deadline.unref();
  await closed;
  clearTimeout(deadline);
  clearInterval(sweeper);
  await app.close();
  await globalThis[Symbol.for("idp.shutdown")]?.();
}
let stopping = 0;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    // A second signal exits at once; but not the copy of the first that arrives with it (Ctrl-C
    // reaches both `npm start`'s script, which forwards it, and this process).
    if (stopping) {
      if (Date.now() - stopping > 1000) process.exit(1);
      return;
    }
    stopping = Date.now();
    stop(signal).then(
      () => process.exit(0),
      (e) => {
        log("error", "stop failed", { err: String(e?.stack ?? e) });
        process.exit(1);
      },
    );
  });
}
