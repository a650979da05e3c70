import { redact } from "./redact.ts";

type TLevel = "debug" | "info" | "warn" | "error";
const ORDER: Record<TLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

function threshold(): number {
  const level = process.env.IDP_LOG_LEVEL as TLevel | undefined;
  return ORDER[level ?? "info"] ?? ORDER.info;
}

// The worker's slot (1..IDP_WORKERS) when several processes serve one port: which one wrote a line.
// Last, so that a line reads as it does from a single process up to there.
const WORKER = process.env.IDP_WORKER ? { worker: Number(process.env.IDP_WORKER) } : {};

function write(level: TLevel, msg: string, fields: Record<string, unknown>): void {
  if (ORDER[level] < threshold()) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...(redact(fields) as object), ...WORKER });
  (level === "error" || level === "warn" ? process.stderr : process.stdout).write(line + "\n");
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
