import { flushLog, isLogged, isoNow, WORKER, writeLine, type TLevel } from "./line-writer.mjs";
import { redactInto } from "./redact.ts";

export { flushLog };
function write(level: TLevel, msg: string, fields: Record<string, unknown>): void {
  if (!isLogged(level)) return;
  const entry: Record<string, unknown> = { time: isoNow(), level, msg };
  redactInto(entry, fields);
  if (WORKER !== undefined) entry.worker = WORKER;
  writeLine(level, JSON.stringify(entry));
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
  if (!isLogged("info")) return;
  let text = `{"time":"${isoNow()}","level":"info","msg":"request","requestId":${json(line.requestId)},"method":${json(line.method)},"path":${json(line.path)},"status":${jsonNumber(line.status)},"ms":${jsonNumber(line.ms)}`;
  if (line.client !== undefined) text += `,"client":${json(line.client)}`;
  if (line.sub !== undefined) text += `,"sub":${json(line.sub)}`;
  if (WORKER !== undefined) text += `,"worker":${WORKER}`;
  writeLine("info", `${text}}`);
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
