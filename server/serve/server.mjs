#!/usr/bin/env node
// The production server (prototype of issue 10, part 1): one node:http server per process. Requests
// for an operation of the catalog go to the fast path (fast-path.mjs); every other request goes to
// Next through its documented custom-server API, which runs the same pipeline as `next start`
// (router-server, proxy.ts, instrumentation.ts). IDP_FAST_PATH=0 sends everything to Next.
//
//   node server/serve/server.mjs [-p PORT] [-H HOSTNAME]      (after `npm run build`)
import { createServer } from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import next from "next";
import { parseContextPath } from "../config/context-path.mjs";
import { loadFastPath } from "./fast-path.mjs";

const require = createRequire(import.meta.url);
const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

function arg(short, long) {
  const argv = process.argv.slice(2);
  const i = argv.findIndex((a) => a === short || a === long);
  return i === -1 ? undefined : argv[i + 1];
}

const port = Number(arg("-p", "--port") ?? process.env.PORT ?? 3000);
// As with `next start`: listen on every address unless told otherwise; Next builds URLs with "localhost" then.
const listenHost = arg("-H", "--hostname") ?? process.env.HOSTNAME;
const hostname = listenHost ?? "localhost";
const contextPath = parseContextPath(process.env.IDP_CONTEXT_PATH);
if (!contextPath.ok) {
  process.stderr.write(`idp: cannot start: IDP_CONTEXT_PATH: ${contextPath.reason}\n`);
  process.exit(1);
}

process.env.NODE_ENV ??= "production";
const app = next({ dev: false, dir, hostname, port });
await app.prepare();
// instrumentation.ts's register() (boot: migrations, change bus, signing key…) has finished once
// this resolves: Next memoises the registration in this module, which it requires from the same file.
await require("next/dist/server/lib/router-utils/instrumentation-globals.external.js").ensureInstrumentationRegistered(dir, ".next");
const nextHandler = app.getRequestHandler();
const fast = process.env.IDP_FAST_PATH === "0" ? undefined : await loadFastPath({ dir, contextPath: contextPath.value, hostname, port });

const server = createServer((req, res) => {
  if (fast?.handle(req, res)) return;
  void nextHandler(req, res);
});
server.listen(port, listenHost, () => {
  process.stdout.write(
    `${JSON.stringify({ time: new Date().toISOString(), level: "info", msg: "listening", port, fastPath: fast ? fast.routes.length : "off", operations: fast?.operations.length })}\n`,
  );
});
for (const signal of ["SIGINT", "SIGTERM"]) process.once(signal, () => server.close(() => process.exit(0)));
