// POST /oauth/revoke – revoke an access token (RFC 7009)
import { revokeRoute } from "@/server/oauth/oauth.routes";

export const POST = revokeRoute;
