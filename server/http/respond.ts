import { isDatabaseUnreachable } from "../db/errors.ts";
import { AppError } from "../errors/app-error.ts";
import { renderError, type TErrorShape } from "../errors/render.ts";
import { describeError, log, logRequest } from "../log/logger.ts";
import { observeRequest } from "../metrics/registry.ts";
import type { TOperation } from "./define-route.ts";
import type { TRequestContext } from "./request-context.ts";
import type { TAnswer, TIncoming } from "./exchange.ts";

/** Seconds a client is asked to wait while the database is unreachable (a restart takes a few). */
const OUTAGE_RETRY_AFTER_S = "5";

/**
 * Any thrown value as an AppError: itself, 503 db.unavailable (with Retry-After) while the database
 * cannot be reached, else `internal`, a bug, logged with the request id.
 */
export function asAppError(e: unknown, requestId: string): AppError {
  if (e instanceof AppError) return e;
  if (isDatabaseUnreachable(e)) {
    log.warn("database unreachable", { requestId, ...describeError(e) });
    return new AppError("db.unavailable", { headers: { "retry-after": OUTAGE_RETRY_AFTER_S } });
  }
  log.error("unhandled error", { requestId, ...describeError(e) });
  return new AppError("internal");
}

/** Any thrown value as the answer of the endpoint family's error shape. */
export function answerError(e: unknown, shape: TErrorShape, requestId: string): TAnswer {
  return renderError(asAppError(e, requestId), shape, requestId);
}

/**
 * The body shape an error of `code` takes at `op`. A bearer token is refused in the v3 security_error
 * shape at every v3 operation, the registration operations included, whose other errors take the
 * registration shape: a client tells a bad token from bad data the same way everywhere.
 */
export function errorShapeOf(op: Pick<TOperation, "auth" | "errorShape">, code: string | undefined): TErrorShape {
  const shape = op.errorShape ?? "v3";
  return shape === "registration" && op.auth.kind === "bearer" && code?.startsWith("auth.") ? "v3" : shape;
}

// A log line copies at most this much of any request-derived value: a path of kilobytes (a probe, a
// fuzzer) must not be written whole into every line it reaches.
export const MAX_LOGGED_CHARS = 256;

/** `value` up to MAX_LOGGED_CHARS, with a marker saying how long it was when cut. */
export function capForLog(value: string): string {
  return value.length <= MAX_LOGGED_CHARS ? value : `${value.slice(0, MAX_LOGGED_CHARS)}…[cut, ${value.length} chars]`;
}

function who(ctx: TRequestContext): { client?: string; sub?: string } {
  const a = ctx.actor;
  if (a.mode === "user") return { client: capForLog(a.clientId), sub: capForLog(a.userId) };
  if (a.mode === "system" || a.mode === "basic") return { client: capForLog(a.clientId) };
  return ctx.clientId ? { client: capForLog(ctx.clientId) } : {};
}

/**
 * Adds the request id (and deprecation) headers, writes the request's log line and counts the answer
 * in the metrics under its operation (undefined: no operation matched). `path` is the path below the
 * context path, as logged.
 */
export function finish(
  answer: TAnswer,
  req: Pick<TIncoming, "method">,
  ctx: TRequestContext,
  op: Pick<TOperation, "deprecated" | "method" | "path"> | undefined,
  started: number,
  path: string,
): TAnswer {
  const headers = op?.deprecated ? { ...answer.headers, "x-request-id": ctx.requestId, deprecation: "true" } : { ...answer.headers, "x-request-id": ctx.requestId };
  const ms = performance.now() - started;
  observeRequest(op, answer.status, ms / 1000);
  // The path only: query strings may carry codes or tokens in later protocol flows.
  logRequest({
    requestId: ctx.requestId,
    method: capForLog(req.method),
    path: capForLog(path),
    status: answer.status,
    ms: Math.round(ms * 10) / 10,
    ...who(ctx),
  });
  return { status: answer.status, headers, body: answer.body };
}
