// GET /api/openapi.json – the OpenAPI 3.1 document
import { openApiRoute } from "@/server/api/openapi.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const GET = openApiRoute;
export const { POST, PUT, PATCH, DELETE } = otherMethods(openApiRoute);
