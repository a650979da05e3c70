// The one writer of log lines, in plain JavaScript so that the production server's own files
// (server/serve/*.mjs, which run outside the bundles) write through it as the logger does
// (server/log/logger.ts: redaction and the request line's shape, on top of this).

import { setImmediate } from "node:timers";

/** @typedef {"debug" | "info" | "warn" | "error"} TLevel */
const ORDER = { debug: 10, info: 20, warn: 30, error: 40 };

/** Whether a line of `level` is written under IDP_LOG_LEVEL (read each time: tests change it). */
export function isLogged(/** @type {TLevel} */ level) {
  return ORDER[level] >= (ORDER[/** @type {TLevel} */ (process.env.IDP_LOG_LEVEL)] ?? ORDER.info);
}

// The worker's slot (1..IDP_WORKERS) when several processes serve one port: which one wrote a line.
// Last, so that a line reads as it does from a single process up to there.
export const WORKER = process.env.IDP_WORKER ? Number(process.env.IDP_WORKER) : undefined;

// The time as lines give it, made once per millisecond: a busy server writes several lines in each,
// and under Next every `new Date()` also asks two AsyncLocalStorages whether a prerender watches.
let stamp = { ms: Number.NaN, iso: "" };
export function isoNow() {
  const ms = Date.now();
  if (ms !== stamp.ms) stamp = { ms, iso: new Date(ms).toISOString() };
  return stamp.iso;
}

// Lines wait for the end of the event loop's turn and go out in one write per stream: a write to a
// pipe or file is synchronous on Linux and cost a tenth of a token request's CPU when made per line
// (bench/README.md). The turn is short, so a line leaves before the next timer fires; on exit, what
// waits is written at once, and an error line goes out at once with the lines before it, so a crash
// or a hang that follows it (no exit event after SIGKILL or out of memory) cannot keep it back. One
// buffer per process, on globalThis, though the bundles hold several copies of this module: lines
// keep their order.
const PENDING = Symbol.for("idp.log.pending");
/** @type {{ out: string; err: string; scheduled: boolean }} */
const pending = (/** @type {any} */ (globalThis)[PENDING] ??= (() => {
  const p = { out: "", err: "", scheduled: false };
  process.once("exit", () => flushInto(p));
  return p;
})());

function flushInto(/** @type {typeof pending} */ p) {
  p.scheduled = false;
  const { out, err } = p;
  p.out = p.err = "";
  if (out) process.stdout.write(out);
  if (err) process.stderr.write(err);
}

/** Writes the lines that wait for the end of the turn now (tests that capture the writes). */
export function flushLog() {
  flushInto(pending);
}

/** Queues one finished line (a JSON object's text, no newline); warnings and errors go to stderr. */
export function writeLine(/** @type {TLevel} */ level, /** @type {string} */ line) {
  if (level === "error" || level === "warn") pending.err += line + "\n";
  else pending.out += line + "\n";
  if (level === "error") flushLog();
  else if (!pending.scheduled) {
    pending.scheduled = true;
    setImmediate(flushLog);
  }
}

/**
 * A line from the server's own .mjs files: `fields` are theirs (ports, counts, an error's text),
 * never a request's, so they are not redacted as the logger's are.
 */
export function logLine(/** @type {TLevel} */ level, /** @type {string} */ msg, /** @type {Record<string, unknown>} */ fields = {}) {
  if (!isLogged(level)) return;
  writeLine(level, JSON.stringify({ time: isoNow(), level, msg, ...fields, ...(WORKER === undefined ? {} : { worker: WORKER }) }));
}
