import { defineRoute } from "../caller/define-route.ts";
import { checkScrapeToken, scrapeMetrics } from "./metrics.service.ts";
import { Answer } from "../http/exchange.ts";

export const metricsRoute = defineRoute(
  {
    method: "GET",
    path: "/metrics",
    summary: "Prometheus metrics of this server (summed over its workers)",
    description:
      "Prometheus text format: requests and latency per operation and status, tokens issued by grant type, sign-ins by method and failure reason, " +
      "outbox backlog, database pool, process and Node.js figures. With several workers (IDP_WORKERS) the figures are their sum, whichever worker answers. Requires `Authorization: Bearer <IDP_METRICS_TOKEN>`; without that variable the metrics are off: 404 `metrics.off`, whose description says how to turn them on.",
    tags: ["Operations"],
    auth: { kind: "none" },
    response: { status: 200, description: "Metrics in Prometheus text exposition format 0.0.4 (text/plain)" },
    errors: ["auth.token_missing", "auth.token_invalid", "metrics.off"],
  },
  async ({ request }) => {
    checkScrapeToken(request.headers.get("authorization"));
    const { contentType, text } = await scrapeMetrics();
    return new Answer(200, { "content-type": contentType, "cache-control": "no-store" }, text);
  },
);
