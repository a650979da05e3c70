// GET /.well-known/openid-configuration – authorization server metadata
import { discoveryRoute } from "@/server/oauth/oauth.routes";

export const GET = discoveryRoute;
