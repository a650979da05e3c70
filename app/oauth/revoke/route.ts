// POST /oauth/revoke – revoke an access or refresh token (RFC 7009)
import { revokeRoute } from "@/server/oauth/oauth.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const POST = revokeRoute;
export const { GET, PUT, PATCH, DELETE } = otherMethods(revokeRoute);
