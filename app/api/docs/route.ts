// GET /api/docs – human-readable API reference
import { docsRoute } from "@/server/http/openapi.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const GET = docsRoute;
export const { POST, PUT, PATCH, DELETE } = otherMethods(docsRoute);
