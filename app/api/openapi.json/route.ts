// GET /api/openapi.json – the OpenAPI 3.1 document
import { openApiRoute } from "@/server/http/openapi.routes";

export const GET = openApiRoute;
