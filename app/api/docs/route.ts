// GET /api/docs – interactive API reference (Scalar)
import { docsRoute } from "@/server/api/docs.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const GET = docsRoute;
export const { POST, PUT, PATCH, DELETE } = otherMethods(docsRoute);
