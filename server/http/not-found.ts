import { AppError } from "../errors/app-error.ts";
import type { TErrorShape } from "../errors/render.ts";
import { respondWithError, finish } from "./respond.ts";
import { requestIdOf, type TRequestContext } from "./request-context.ts";

/**
 * Handlers for every method of a catch-all route under an API prefix: an unknown path answers a JSON
 * 404 in the family's error shape instead of Next's HTML page.
 */
export function notFoundRoutes(shape: TErrorShape = "v3") {
  const handler = async (req: Request): Promise<Response> => {
    const started = performance.now();
    const ctx: TRequestContext = { requestId: requestIdOf(req), actor: { mode: "anonymous" } };
    const res = respondWithError(new AppError("route.not_found"), shape, ctx);
    return finish(res, req, ctx, undefined, started);
  };
  return { GET: handler, POST: handler, PUT: handler, PATCH: handler, DELETE: handler, HEAD: handler, OPTIONS: handler };
}
