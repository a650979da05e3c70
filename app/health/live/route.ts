// GET /health/live – liveness probe
import { liveRoute } from "@/server/health/health.routes";

export const GET = liveRoute;
