import { AppError } from "../errors/app-error.ts";
import type { TErrorCode } from "../errors/codes.ts";
import type { TErrorShape } from "../errors/render.ts";
import type { THttpMethod, TRouteHandler } from "./define-route.ts";
import { nextPage } from "./next-transport.ts";
import { pageRun } from "./request-core.ts";
import { answerError } from "./respond.ts";

type THandler = (req: Request) => Promise<Response>;
const METHODS: THttpMethod[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/** Every request answered with the error `code`, through the request core (its request id, its log line). */
function answer(code: TErrorCode, shape: TErrorShape, headers?: Record<string, string>): THandler {
  const refuse = (_req: unknown, e: unknown, requestId: string) => answerError(e, shape, requestId);
  return nextPage(pageRun(() => Promise.reject(new AppError(code, { headers })), refuse));
}

/**
 * Handlers for every method of a catch-all route under an API prefix: an unknown path answers a JSON
 * 404 in the family's error shape instead of Next's HTML page.
 */
export function notFoundRoutes(shape: TErrorShape = "v3") {
  const handler = answer("route.not_found", shape);
  return { GET: handler, POST: handler, PUT: handler, PATCH: handler, DELETE: handler, HEAD: handler, OPTIONS: handler };
}

/**
 * The methods a route file does not implement, answering a JSON 405 with `Allow` in the operation's
 * error shape (Next's own 405 has an empty body). Only the missing methods are present at run time.
 */
export function otherMethods(...routes: TRouteHandler[]): Record<THttpMethod, THandler> {
  const allowed = routes.map((r) => r.operation.method);
  const handler = answer("route.method_not_allowed", routes[0]?.operation.errorShape ?? "v3", { allow: allowed.join(", ") });
  return Object.fromEntries(METHODS.filter((m) => !allowed.includes(m)).map((m) => [m, handler])) as Record<THttpMethod, THandler>;
}
