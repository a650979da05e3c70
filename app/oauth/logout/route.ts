// GET|POST /oauth/logout – end the user's session (OpenID Connect RP-Initiated Logout)
import { logoutGetRoute, logoutPostRoute } from "@/server/oauth/logout/logout.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const GET = logoutGetRoute;
export const POST = logoutPostRoute;
export const { PUT, PATCH, DELETE } = otherMethods(logoutGetRoute, logoutPostRoute);
