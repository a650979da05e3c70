// GET /api/docs/scalar.js – the API reference page's script, from node_modules
import { docsBundleRoute } from "@/server/api/docs.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const GET = docsBundleRoute;
export const { POST, PUT, PATCH, DELETE } = otherMethods(docsBundleRoute);
