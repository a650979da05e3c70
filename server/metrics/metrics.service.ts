import { createHash, timingSafeEqual } from "node:crypto";
import { getConfig } from "../config/config.ts";
import { AppError } from "../errors/app-error.ts";
import { addDatabaseCollectors } from "./collectors.ts";
import { metrics } from "./registry.ts";

const CHALLENGE = { "www-authenticate": 'Bearer realm="metrics"' };

// Equal-length digests, so the comparison takes the same time whatever the token's length and content.
const digest = (s: string) => createHash("sha256").update(s).digest();

/**
 * Is `authorization` the configured scrape token? Without IDP_METRICS_TOKEN the endpoint does not
 * exist (404): process and traffic figures are not for anyone who can reach the port.
 */
export function checkScrapeToken(authorization: string | null, token = getConfig().metricsToken): void {
  if (!token) throw new AppError("route.not_found");
  const [scheme, given] = (authorization ?? "").split(/\s+/, 2);
  if (scheme?.toLowerCase() !== "bearer" || !given) throw new AppError("auth.token_missing", { headers: CHALLENGE });
  if (!timingSafeEqual(digest(given), digest(token))) throw new AppError("auth.token_invalid", { headers: CHALLENGE });
}

/** The process's metrics in Prometheus' text format. */
export async function scrapeMetrics(): Promise<{ contentType: string; text: string }> {
  await addDatabaseCollectors();
  const { registry } = metrics();
  return { contentType: registry.contentType, text: await registry.metrics() };
}
