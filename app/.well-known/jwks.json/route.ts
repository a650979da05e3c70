// GET /.well-known/jwks.json – public keys that verify access tokens
import { jwksRoute } from "@/server/oauth/oauth.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const GET = jwksRoute;
export const { POST, PUT, PATCH, DELETE } = otherMethods(jwksRoute);
