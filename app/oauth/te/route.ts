// POST /oauth/te – issue tokens (client_credentials, authorization_code with PKCE, refresh_token)
import { tokenRoute } from "@/server/oauth/oauth.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const POST = tokenRoute;
export const { GET, PUT, PATCH, DELETE } = otherMethods(tokenRoute);
