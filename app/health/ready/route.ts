// GET /health/ready – readiness probe (503 while the database is unreachable)
import { readyRoute } from "@/server/health/health.routes";

export const GET = readyRoute;
