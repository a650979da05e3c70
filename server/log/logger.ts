import { redactInto } from "./redact.ts";

type TLevel = "debug" | "info" | "warn" | "error";
const ORDER: Record<TLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

function threshold(): number {
  const level = process.env.IDP_LOG_LEVEL as TLevel | undefined;
  return ORDER[level ?? "info"] ?? ORDER.info;
}

// The worker's slot (1..IDP_WORKERS) when several processes serve one port: which one wrote a line.
// Last, so that a line reads as it does from a single process up to there.
const WORKER = process.env.IDP_WORKER ? Number(process.env.IDP_WORKER) : undefined;

// Lines wait for the end of the event loop's turn and go out in one write per stream: a write to a
// pipe or file is synchronous on Linux and cost a tenth of a token request's CPU when made per line
// (bench/README.md). The turn is short, so a line leaves before the next timer fires; on exit, what
// waits is written at once, and an error line goes out at once with the lines before it, so a crash
// or a hang that follows it (no exit event after SIGKILL or out of memory) cannot keep it back. One
// buffer per process, on globalThis, though the bundles hold several copies of this module: lines
// keep their order.
type TPending = { out: string; err: string; scheduled: boolean };
const PENDING = Symbol.for("idp.log.pending");
const pending: TPending = ((globalThis as Record<symbol, TPending | undefined>)[PENDING] ??= (() => {
  const p: TPending = { out: "", err: "", scheduled: false };
  process.once("exit", () => flushInto(p));
  return p;
})());

function flushInto(p: TPending): void {
  p.scheduled = false;
  const { out, err } = p;
  p.out = p.err = "";
  if (out) process.stdout.write(out);
  if (err) process.stderr.write(err);
}

/** Writes the lines that wait for the end of the turn now (tests that capture the writes). */
export function flushLog(): void {
  flushInto(pending);
}

// The time as lines give it, made once per millisecond: a busy server writes several lines in each,
// and under Next every `new Date()` also asks two AsyncLocalStorages whether a prerender watches.
let stamp = { ms: Number.NaN, iso: "" };
function isoNow(): string {
  const ms = Date.now();
  if (ms !== stamp.ms) stamp = { ms, iso: new Date(ms).toISOString() };
  return stamp.iso;
}

function write(level: TLevel, msg: string, fields: Record<string, unknown>): void {
  if (ORDER[level] < threshold()) return;
  const entry: Record<string, unknown> = { time: isoNow(), level, msg };
  redactInto(entry, fields);
  if (WORKER !== undefined) entry.worker = WORKER;
  enqueue(level, JSON.stringify(entry));
}

/** The fields of the line every answer writes (server/http/respond.ts), in their order. */
export type TRequestLine = { requestId: string; method: string; path: string; status: number; ms: number; client?: string; sub?: string };

const json = JSON.stringify;
const jsonNumber = (n: number) => (Number.isFinite(n) ? String(n) : "null");

/**
 * log.info("request", line), byte for byte, put together as text: none of its field names is a
 * secret's, so nothing is redacted, and the object write() builds and serializes is not needed.
 * Every answer writes one; inside the server, the general path cost about as much as the rest of
 * the answer's bookkeeping (bench/README.md).
 */
export function logRequest(line: TRequestLine): void {
  if (ORDER.info < threshold()) return;
  let text = `{"time":"${isoNow()}","level":"info","msg":"request","requestId":${json(line.requestId)},"method":${json(line.method)},"path":${json(line.path)},"status":${jsonNumber(line.status)},"ms":${jsonNumber(line.ms)}`;
  if (line.client !== undefined) text += `,"client":${json(line.client)}`;
  if (line.sub !== undefined) text += `,"sub":${json(line.sub)}`;
  if (WORKER !== undefined) text += `,"worker":${WORKER}`;
  enqueue("info", `${text}}`);
}

function enqueue(level: TLevel, line: string): void {
  if (level === "error" || level === "warn") pending.err += line + "\n";
  else pending.out += line + "\n";
  if (level === "error") flushLog();
  else if (!pending.scheduled) {
    pending.scheduled = true;
    setImmediate(flushLog);
  }
}

/**
 * JSON-lines logger. Fields pass through redact(), so a secret-named field never reaches the log even
 * when a caller forgets; callers still must not put secrets in `msg`.
 */
export const log = {
  debug: (msg: string, fields: Record<string, unknown> = {}) => write("debug", msg, fields),
  info: (msg: string, fields: Record<string, unknown> = {}) => write("info", msg, fields),
  warn: (msg: string, fields: Record<string, unknown> = {}) => write("warn", msg, fields),
  error: (msg: string, fields: Record<string, unknown> = {}) => write("error", msg, fields),
};

/** Error details for a log line: name, message and stack, never the request that caused it. */
export function describeError(e: unknown): Record<string, unknown> {
  if (e instanceof Error) return { err: { name: e.name, message: e.message, stack: e.stack } };
  return { err: { message: String(e) } };
}
