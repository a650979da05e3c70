import { describe, expect, it } from "vitest";
import { parseConfig } from "../config/config.ts";
import { AppError } from "../errors/app-error.ts";
import { checkScrapeToken } from "./metrics.service.ts";

const TOKEN = "scrape-token-0123456789";

function refusal(authorization: string | null, token: string | undefined): { code: string; headers?: Record<string, string> } | undefined {
  try {
    checkScrapeToken(authorization, token);
    return undefined;
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    return { code: e.code, headers: e.details.headers };
  }
}

describe("the metrics scrape token", () => {
  it("hides the endpoint when no token is configured, whatever the request sends", () => {
    expect(refusal(`Bearer ${TOKEN}`, undefined)).toEqual({ code: "metrics.off", headers: undefined });
    expect(refusal(null, undefined)?.code).toBe("metrics.off");
  });

  it("admits exactly the configured bearer token", () => {
    expect(refusal(`Bearer ${TOKEN}`, TOKEN)).toBeUndefined();
    expect(refusal(`bearer ${TOKEN}`, TOKEN)).toBeUndefined();
  });

  it.each([
    [null, "auth.token_missing"],
    ["", "auth.token_missing"],
    [`Basic ${TOKEN}`, "auth.token_missing"],
    ["Bearer", "auth.token_missing"],
    [`Bearer ${TOKEN}x`, "auth.token_invalid"],
    [`Bearer ${TOKEN.slice(0, -1)}`, "auth.token_invalid"],
  ])("refuses %j with %s and a Bearer challenge", (authorization, code) => {
    expect(refusal(authorization, TOKEN)).toEqual({ code, headers: { "www-authenticate": 'Bearer realm="metrics"' } });
  });

  it("takes IDP_METRICS_TOKEN from the environment and never echoes a bad one", () => {
    expect(parseConfig({ IDP_METRICS_TOKEN: TOKEN }).metricsToken).toBe(TOKEN);
    expect(parseConfig({}).metricsToken).toBeUndefined();
    expect(() => parseConfig({ IDP_METRICS_TOKEN: "short-secret" })).toThrow(/^IDP_METRICS_TOKEN: must be at least 16 characters \(e\.g\. `openssl rand -hex 24`\)$/);
    expect(() => parseConfig({ IDP_METRICS_TOKEN: "has a space in it, sixteen+" })).toThrow(/^IDP_METRICS_TOKEN: must be printable ASCII without spaces$/);
  });
});
