import { AppError } from "../errors/app-error.ts";
import { renderError, type TErrorShape } from "../errors/render.ts";
import { describeError, log } from "../log/logger.ts";
import type { TOperation } from "./define-route.ts";
import type { TRequestContext } from "./request-context.ts";

/** Renders any thrown value; anything but an AppError is a bug, logged with the request id. */
export function respondWithError(e: unknown, shape: TErrorShape, ctx: Pick<TRequestContext, "requestId">): Response {
  if (e instanceof AppError) return renderError(e, shape, ctx.requestId);
  log.error("unhandled error", { requestId: ctx.requestId, ...describeError(e) });
  return renderError(new AppError("internal"), shape, ctx.requestId);
}

function who(ctx: TRequestContext): Record<string, string> {
  const a = ctx.actor;
  if (a.mode === "user") return { client: a.clientId, sub: a.userId };
  if (a.mode === "system" || a.mode === "basic") return { client: a.clientId };
  return ctx.clientId ? { client: ctx.clientId } : {};
}

/** Adds the request id (and deprecation) headers and writes the request's log line. */
export function finish(res: Response, req: Request, ctx: TRequestContext, op: Pick<TOperation, "deprecated"> | undefined, started: number): Response {
  res.headers.set("x-request-id", ctx.requestId);
  if (op?.deprecated) res.headers.set("deprecation", "true");
  // The path only: query strings may carry codes or tokens in later protocol flows.
  log.info("request", {
    requestId: ctx.requestId,
    method: req.method,
    path: new URL(req.url).pathname,
    status: res.status,
    ms: Math.round((performance.now() - started) * 10) / 10,
    ...who(ctx),
  });
  return res;
}
