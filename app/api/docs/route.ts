// GET /api/docs – human-readable API reference
import { docsRoute } from "@/server/http/openapi.routes";

export const GET = docsRoute;
