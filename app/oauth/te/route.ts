// POST /oauth/te – issue an access token (RFC 6749 client_credentials)
import { tokenRoute } from "@/server/oauth/oauth.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const POST = tokenRoute;
export const { GET, PUT, PATCH, DELETE } = otherMethods(tokenRoute);
