import { createHash, timingSafeEqual } from "node:crypto";
import { askPrimary, inClusterWorker } from "../cluster/primary-link.ts";
import { getConfig } from "../config/config.ts";
import { AppError } from "../errors/app-error.ts";
import { addDatabaseCollectors } from "./collectors.ts";
import { metrics } from "./registry.ts";

const CHALLENGE = { "www-authenticate": 'Bearer realm="metrics"' };

// Equal-length digests, so the comparison takes the same time whatever the token's length and content.
const digest = (s: string) => createHash("sha256").update(s).digest();

/**
 * Is `authorization` the configured scrape token? Without IDP_METRICS_TOKEN the metrics are off
 * (404, with how to turn them on): process and traffic figures are not for anyone who can reach the port.
 */
export function checkScrapeToken(authorization: string | null, token = getConfig().metricsToken): void {
  if (!token) throw new AppError("metrics.off");
  const [scheme, given] = (authorization ?? "").split(/\s+/, 2);
  if (scheme?.toLowerCase() !== "bearer" || !given) throw new AppError("auth.token_missing", { headers: CHALLENGE });
  if (!timingSafeEqual(digest(given), digest(token))) throw new AppError("auth.token_invalid", { headers: CHALLENGE });
}

/**
 * The metrics in Prometheus' text format: this process's, or with several workers (IDP_WORKERS) the
 * sum over all of them, which their cluster primary collects and adds up (server/serve/cluster.mjs),
 * so that whichever worker a scrape reaches, it describes the whole server.
 */
export async function scrapeMetrics(): Promise<{ contentType: string; text: string }> {
  const { registry } = metrics();
  if (inClusterWorker()) return { contentType: registry.contentType, text: await askPrimary<string>("metrics") };
  await addDatabaseCollectors();
  return { contentType: registry.contentType, text: await registry.metrics() };
}

/** What this worker contributes when the primary collects from every worker. */
export async function localMetricsAsJson(): Promise<unknown> {
  await addDatabaseCollectors();
  return metrics().registry.getMetricsAsJSON();
}
