// GET /metrics – Prometheus metrics (bearer IDP_METRICS_TOKEN)
import { metricsRoute } from "@/server/metrics/metrics.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const GET = metricsRoute;
export const { POST, PUT, PATCH, DELETE } = otherMethods(metricsRoute);
