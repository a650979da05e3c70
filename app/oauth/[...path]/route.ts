// * /oauth/… – unknown OAuth endpoint: RFC 6749-shaped JSON 404
import { notFoundRoutes } from "@/server/http/fallback-routes";

export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = notFoundRoutes("oauth");
