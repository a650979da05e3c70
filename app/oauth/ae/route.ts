// GET|POST /oauth/ae – authorization endpoint (code flow with PKCE, OpenID Connect)
import { authorizeGetRoute, authorizePostRoute } from "@/server/oauth/authorize/authorize.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const GET = authorizeGetRoute;
export const POST = authorizePostRoute;
export const { PUT, PATCH, DELETE } = otherMethods(authorizeGetRoute, authorizePostRoute);
