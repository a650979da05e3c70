// * /.well-known/… – unknown metadata document: RFC 6749-shaped JSON 404 instead of an HTML page
import { notFoundRoutes } from "@/server/http/fallback-routes";

export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = notFoundRoutes("oauth");
