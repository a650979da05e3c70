import { AppError } from "../errors/app-error.ts";
import { ERROR_CODES } from "../errors/codes.ts";
import type { TErrorShape } from "../errors/render.ts";
import { requestIdOf, type TRequestContext } from "./request-context.ts";
import { answerError, finish } from "./respond.ts";
import { Answer, type TAnswer, type THasHeaders } from "./exchange.ts";

// The endpoint families by path prefix below the context path, and the error shape each answers in.
// The catch-all routes of the same prefixes answer their 404s in the same shapes.
const FAMILIES: [prefix: string, shape: TErrorShape][] = [
  ["/admin/api/", "v3"],
  ["/reg/api/", "registration"],
  ["/api/", "v3"],
  ["/oauth/", "oauth"],
  ["/.well-known/", "oauth"],
];

/** The error shape of the API family `path` belongs to; undefined for pages (console, portal). */
export function familyShapeOf(path: string): TErrorShape | undefined {
  return FAMILIES.find(([prefix]) => path.startsWith(prefix))?.[1];
}

/** True when a percent escape in `path` is not valid UTF-8 (`%zz`, `%`, `%c0%af`, `%ff`, `%ed%a0%80`). */
export function hasMalformedEscape(path: string): boolean {
  try {
    decodeURIComponent(path);
    return false;
  } catch {
    return true;
  }
}

/**
 * Refuses a path Next's router cannot decode, in the family's error shape (a plain-text 400 for
 * pages), with the request id and the usual log line. Undefined lets the request through.
 * `path` is the path below the context path.
 */
export function refuseMalformedUrl(req: THasHeaders & { method: string }, path: string): TAnswer | undefined {
  if (!hasMalformedEscape(path)) return undefined;
  const started = performance.now();
  const ctx: TRequestContext = { requestId: requestIdOf(req), actor: { mode: "anonymous" } };
  const shape = familyShapeOf(path);
  const res = shape
    ? answerError(new AppError("request.malformed_url", { desc: "the path holds a percent escape that is not valid UTF-8" }), shape, ctx.requestId)
    : new Answer(ERROR_CODES["request.malformed_url"].status, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" }, "Bad Request: malformed percent-encoding in the path\n");
  return finish(res, req, ctx, undefined, started, path);
}
