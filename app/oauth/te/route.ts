// POST /oauth/te – issue an access token (RFC 6749 client_credentials)
import { tokenRoute } from "@/server/oauth/oauth.routes";

export const POST = tokenRoute;
