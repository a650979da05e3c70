// GET /.well-known/openid-configuration – authorization server metadata
import { discoveryRoute } from "@/server/oauth/oauth.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const GET = discoveryRoute;
export const { POST, PUT, PATCH, DELETE } = otherMethods(discoveryRoute);
