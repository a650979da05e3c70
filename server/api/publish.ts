import { docsBundleRoute, docsRoute } from "./docs.routes.ts";
import type { TRouteHandler } from "../http/define-route.ts";
import { openApiRoute } from "./openapi.routes.ts";
import { ROUTES } from "./catalog.ts";
import { PAGES } from "./pages.ts";

/**
 * Where the production server (server/serve/server.mjs) waits for this process's operations: it sets
 * the slot before Next starts, and instrumentation.ts fills it once boot has finished. Under `next
 * dev` and `next start` there is no slot and nothing is published.
 */
export const OPERATIONS_SLOT = Symbol.for("idp.operations");

type TPublished = { method: string; path: string; run: TRouteHandler["run"] };
type TSlot = { resolve: (operations: TPublished[]) => void };

/**
 * Every operation the node:http transport may serve: method, path template and core run, and the
 * service's own pages the same way. Operations that need Next's request scope (next-auth's session)
 * stay with Next.
 */
export function publishedOperations(): TPublished[] {
  const all = [...ROUTES, openApiRoute, docsRoute, docsBundleRoute];
  const operations = all.filter((r) => !r.operation.nextRequestScope).map((r) => ({ method: r.operation.method, path: r.operation.path, run: r.run }));
  return [...operations, ...PAGES.map((p) => ({ method: p.page.method, path: p.page.path, run: p.run }))];
}

/** Hands the operations to the production server, when one waits for them. */
export function publishOperations(): void {
  (globalThis as { [OPERATIONS_SLOT]?: TSlot })[OPERATIONS_SLOT]?.resolve(publishedOperations());
}
