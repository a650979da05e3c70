// POST /oauth/introspect – describe a token, or {"active":false} (RFC 7662)
import { introspectRoute } from "@/server/oauth/oauth.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const POST = introspectRoute;
export const { GET, PUT, PATCH, DELETE } = otherMethods(introspectRoute);
