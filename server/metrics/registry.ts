import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { boundedLabel } from "./labels.ts";
import { requestSeries, type TRequestSeries } from "./request-series.ts";

/**
 * The process's metrics. Names carry no worker or instance label: when several workers serve one
 * port (IDP_WORKERS), prom-client's AggregatorRegistry sums counters and histograms across them and
 * each gauge says how it combines (`aggregator`, default sum: process memory and CPU, pool
 * connections and the like are the machine's totals), so one scrape describes the whole machine.
 */
type TMetrics = {
  registry: Registry;
  /** idp_http_requests_total and idp_http_request_duration_seconds (request-series.ts). */
  requests: TRequestSeries;
  tokens: Counter<"grant_type">;
  signIns: Counter<"method">;
  signInFailures: Counter<"method" | "reason">;
  directorySyncs: Histogram<"kind" | "status">;
  directoryEntryFailures: Counter<"kind">;
  /** Label guards, one per label the code fills in (see boundedLabel). */
  words: { grant: (v: unknown) => string; method: (v: unknown) => string; reason: (v: unknown) => string };
  /** Gauges that query the database, added once by the first scrape (collectors.ts). */
  collectorsAdded?: Promise<void>;
};

function createMetrics(): TMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  // 1 per process; summed over the workers of a cluster, it says how many answered the scrape.
  new Gauge({ name: "idp_server_processes", help: "Server processes whose figures this scrape sums (IDP_WORKERS).", registers }).set(1);
  return {
    registry,
    requests: requestSeries(registry, {
      requests: { name: "idp_http_requests_total", help: "Answered API requests by catalog operation (method and path template) and HTTP status." },
      duration: {
        name: "idp_http_request_duration_seconds",
        help: "Time from the handler's start to its answer, by catalog operation and status class.",
        // From a cached read (~1 ms) to an argon2 verification queued behind others (seconds).
        buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      },
    }),
    tokens: new Counter({ name: "idp_oauth_tokens_issued_total", help: "Token endpoint answers that issued tokens, by grant type.", labelNames: ["grant_type"], registers }),
    signIns: new Counter({ name: "idp_sign_ins_total", help: "Successful sign-ins by method.", labelNames: ["method"], registers }),
    signInFailures: new Counter({ name: "idp_sign_in_failures_total", help: "Refused sign-ins by method and reason.", labelNames: ["method", "reason"], registers }),
    directorySyncs: new Histogram({
      name: "idp_directory_sync_duration_seconds",
      help: "Directory synchronisations by kind (full, incremental) and outcome (done, failed), and how long each took.",
      labelNames: ["kind", "status"],
      // From an incremental run that found nothing (well under a second) to a full read of a large directory (an hour).
      buckets: [0.5, 1, 5, 15, 60, 300, 900, 3600],
      registers,
    }),
    directoryEntryFailures: new Counter({ name: "idp_directory_sync_entry_failures_total", help: "Directory entries a synchronisation could not apply, by kind of run.", labelNames: ["kind"], registers }),
    words: { grant: boundedLabel(), method: boundedLabel(), reason: boundedLabel() },
  };
}

// Next bundles route handlers and instrumentation separately: a module-level registry would exist
// once per bundle and each scrape would see only its own bundle's requests. globalThis is shared.
const KEY = Symbol.for("idp.metrics");

export function metrics(): TMetrics {
  const holder = globalThis as { [KEY]?: TMetrics };
  return (holder[KEY] ??= createMetrics());
}

/** Counts one answered request; called by the request layer for every answer it writes. */
export function observeRequest(op: { method: string; path: string } | undefined, status: number, seconds: number): void {
  metrics().requests.observe(op, status, seconds);
}

export function countIssuedToken(grantType: string): void {
  const m = metrics();
  m.tokens.inc({ grant_type: m.words.grant(grantType) });
}

/**
 * Counts sign-ins from the audit trail's events, the one place every sign-in method reports to.
 * The password flow records its failures without a method (sign-in.service.ts, account-checks.ts):
 * those are "pwd".
 */
export function countSignInEvent(type: string, params: Record<string, unknown>): void {
  const m = metrics();
  if (type === "user.signed_in") m.signIns.inc({ method: m.words.method(params.method ?? "pwd") });
  else if (type === "user.sign_in_failed") m.signInFailures.inc({ method: m.words.method(params.method ?? "pwd"), reason: m.words.reason(params.reason) });
}

/** One finished directory synchronisation: its duration by kind and outcome, and the entries it could not apply. */
export function observeDirectorySync(kind: "full" | "incremental", status: "done" | "failed", seconds: number, failedEntries: number): void {
  const m = metrics();
  m.directorySyncs.observe({ kind, status }, seconds);
  if (failedEntries) m.directoryEntryFailures.inc({ kind }, failedEntries);
}
