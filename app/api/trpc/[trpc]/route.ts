// GET, POST /api/trpc/{procedure} – the admin console's tRPC calls
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { getConfig } from "@/server/config/config";
import { describeError, log } from "@/server/log/logger";
import { isServerFault } from "@/server/trpc/errors";
import { refuseAnonymousUpload, refuseTrpcRequest } from "@/server/trpc/request-guard";
import { MAX_TRPC_BATCH } from "@/server/trpc/trpc.shared";
import { createTrpcContext } from "@/server/trpc/init";
import { appRouter } from "@/server/trpc/root";

// Next 16 hands route handlers req.url without its basePath; older releases kept it. Accept both, so
// a framework upgrade cannot silently turn every procedure into a 404.
function endpointOf(req: Request): string {
  const withBase = `${getConfig().contextPath}/api/trpc`;
  return new URL(req.url).pathname.startsWith(`${withBase}/`) ? withBase : "/api/trpc";
}

async function handle(req: Request): Promise<Response> {
  const refused = refuseTrpcRequest(req) ?? (await refuseAnonymousUpload(req));
  if (refused) return refused;
  return fetchRequestHandler({
    endpoint: endpointOf(req),
    req,
    router: appRouter,
    maxBatchSize: MAX_TRPC_BATCH,
    createContext: () => createTrpcContext(req),
    // Console answers hold client data and, once, secrets: no cache may keep them.
    responseMeta: () => ({ headers: { "cache-control": "no-store" } }),
    onError({ error, path }) {
      // Input (which may be credentials) is deliberately not logged.
      if (isServerFault(error)) log.error("console call failed", { path, ...describeError(error.cause ?? error) });
    },
  });
}

export { handle as GET, handle as POST };
