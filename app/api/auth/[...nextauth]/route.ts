// GET, POST /api/auth/{action}/{client} – sign-in of console and portal at the service itself (next-auth), and their sign-out
import type { NextRequest } from "next/server";
import { handleAuthRequest, type TAuthRouteContext } from "@/server/auth/auth-route";

function handle(req: NextRequest, context: TAuthRouteContext): Promise<Response> {
  return handleAuthRequest(req, context);
}

export { handle as GET, handle as POST };
