// GET /health/live – liveness probe
import { liveRoute } from "@/server/health/health.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const GET = liveRoute;
export const { POST, PUT, PATCH, DELETE } = otherMethods(liveRoute);
