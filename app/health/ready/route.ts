// GET /health/ready – readiness probe (503 while the database is unreachable)
import { readyRoute } from "@/server/health/health.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const GET = readyRoute;
export const { POST, PUT, PATCH, DELETE } = otherMethods(readyRoute);
