// GET /.well-known/jwks.json – public keys that verify access tokens
import { jwksRoute } from "@/server/oauth/oauth.routes";

export const GET = jwksRoute;
