import { describe, expect, it } from "vitest";
import { getConfig } from "../config/config.ts";
import type { TIncoming } from "../http/exchange.ts";
import { metricsRoute } from "./metrics.routes.ts";

const scrape = (authorization: string | null): TIncoming => ({
  method: "GET",
  path: "/metrics",
  search: "",
  headers: { get: (n) => (n === "authorization" ? authorization : null) },
  readBody: async () => new Uint8Array(0),
});

describe("GET /metrics without IDP_METRICS_TOKEN", () => {
  it("answers 404 saying the metrics are off and how to turn them on, and shows no figure", async () => {
    expect(getConfig().metricsToken).toBeUndefined();
    for (const authorization of [null, "Bearer some-token-0123456789"]) {
      const answer = await metricsRoute.run(scrape(authorization), {});
      expect(answer.status).toBe(404);
      const body = JSON.parse(String(answer.body)) as Record<string, unknown>;
      expect(body).toMatchObject({ error: "not_found" });
      expect(JSON.stringify(body)).toContain("metrics are off on this server: set IDP_METRICS_TOKEN");
      expect(String(answer.body)).not.toContain("idp_http_requests");
    }
  });
});
