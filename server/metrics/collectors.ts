import { Gauge, type Registry } from "prom-client";
import { hashGateState, MAX_PARALLEL_HASHES } from "../crypto/hash-gate.ts";
import type { TDatabase } from "../db/database.ts";
import { getDatabase } from "../db/index.ts";
import { countPendingMessages } from "../messaging/outbox.service.ts";
import { metrics } from "./registry.ts";

// A scrape every few seconds from several Prometheus servers must not become a query load of its own.
const OUTBOX_CACHE_MS = 10_000;

/** `load` at most once per `ms`; a failed load is forgotten, so the next scrape tries again. */
export function cachedFor<T>(ms: number, load: () => Promise<T>): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | undefined;
  return () => {
    const now = Date.now();
    if (!last || now - last.at >= ms) {
      const entry = { at: now, value: load() };
      entry.value.catch(() => last === entry && (last = undefined));
      last = entry;
    }
    return last.value;
  };
}

/**
 * Adds the gauges that read the database, once per process (the promise lives with the registry on
 * globalThis, so the outbox cache below exists once too). Awaited by the metrics endpoint: a process
 * that is never scraped never runs their queries.
 */
export function addDatabaseCollectors(): Promise<void> {
  const m = metrics();
  // Nothing is registered before the database answers, so a failed first try can simply be repeated.
  return (m.collectorsAdded ??= getDatabase().then(
    (db) => addCollectors(m.registry, db),
    (e: unknown) => {
      m.collectorsAdded = undefined;
      throw e;
    },
  ));
}

function addCollectors(registry: Registry, db: TDatabase): void {
  const registers = [registry];
  const pending = cachedFor(OUTBOX_CACHE_MS, countPendingMessages);
  // The outbox figures are the database's, the same from every worker: aggregated by max, not summed.
  new Gauge({
    name: "idp_outbox_pending_messages",
    help: "Messages waiting for delivery, by channel (read at most every 10 s).",
    labelNames: ["channel"],
    aggregator: "max",
    registers,
    async collect() {
      const rows = await pending();
      this.reset();
      for (const r of rows) this.set({ channel: r.channel }, r.count);
    },
  });
  new Gauge({
    name: "idp_outbox_oldest_pending_age_seconds",
    help: "Age of the oldest message waiting for delivery; 0 when none waits.",
    aggregator: "max",
    registers,
    async collect() {
      const oldest = Math.min(...(await pending()).flatMap((r) => (r.oldest ? [r.oldest.getTime()] : [])));
      this.set(Number.isFinite(oldest) ? Math.max(0, (Date.now() - oldest) / 1000) : 0);
    },
  });
  // Password checks queue here (argon2, tens of ms each): a growing queue is what a sign-in burst looks like.
  new Gauge({
    name: "idp_password_hashes",
    help: `Password hash computations by state: running (at most ${MAX_PARALLEL_HASHES} at once) or waiting for a slot.`,
    labelNames: ["state"],
    registers,
    collect() {
      const g = hashGateState();
      this.set({ state: "running" }, g.running);
      this.set({ state: "waiting" }, g.waiting);
    },
  });
  new Gauge({
    name: "idp_db_info",
    help: "The database this process uses (value 1): kind is postgres or embedded.",
    labelNames: ["kind"],
    aggregator: "max",
    registers,
  }).set({ kind: db.poolStats ? "postgres" : "embedded" }, 1);
  // The embedded database is one in-process connection without a pool: nothing to report there.
  const stats = db.poolStats;
  if (!stats) return;
  new Gauge({
    name: "idp_db_pool_connections",
    help: "PostgreSQL pool connections by state: busy (running a query or transaction) or idle.",
    labelNames: ["state"],
    registers,
    collect() {
      const s = stats();
      this.set({ state: "busy" }, s.total - s.idle);
      this.set({ state: "idle" }, s.idle);
    },
  });
  new Gauge({ name: "idp_db_pool_max_connections", help: "Size limit of the PostgreSQL pool.", registers }).set(stats().max);
  new Gauge({
    name: "idp_db_pool_waiting_requests",
    help: "Queries waiting for a free PostgreSQL pool connection.",
    registers,
    collect() {
      this.set(stats().waiting);
    },
  });
}
