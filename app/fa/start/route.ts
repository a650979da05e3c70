// GET /fa/start?req=… – the v2 binding in the browser: the portal's session, then on to the provider
import { faStartRoute } from "@/server/federation/external-auth/bind-flow.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const GET = faStartRoute;
export const { POST, PUT, PATCH, DELETE } = otherMethods(faStartRoute);
