// * /rest/[...path]/ – unknown v1 REST path: JSON 404 instead of an HTML page
import { notFoundRoutes } from "@/server/http/fallback-routes";

export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = notFoundRoutes("v3");
