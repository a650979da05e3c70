// GET|POST /oauth/me – UserInfo: the signed-in user's claims by scope (OpenID Connect)
import { userinfoGetRoute, userinfoPostRoute } from "@/server/oauth/oauth.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const GET = userinfoGetRoute;
export const POST = userinfoPostRoute;
export const { PUT, PATCH, DELETE } = otherMethods(userinfoGetRoute, userinfoPostRoute);
