import pg from "pg";
import { describeError, log } from "../log/logger.ts";

export type TNotificationHandlers = {
  /** A payload that arrived on the channel. */
  message(payload: string): void;
  /** LISTEN holds again after the connection was lost: whatever was sent meanwhile is gone. */
  resumed(): void;
};

/** PostgreSQL's LISTEN/NOTIFY, for telling the other processes on the same database what changed. */
export type TNotifications = {
  /** Sends a payload (under 8000 bytes) on a channel; delivered to every listener, this process's too. */
  notify(channel: string, payload: string): Promise<void>;
  /** Holds LISTEN on a dedicated connection until stop(), reconnecting whenever it drops. */
  listen(channel: string, handlers: TNotificationHandlers): Promise<{ stop(): Promise<void> }>;
  /** Stops every listener (part of closing the database). */
  close(): Promise<void>;
};

const CONNECT_TIMEOUT_MS = 5_000;
// A connection that died without a reset (a cut cable, a dropped NAT entry) shows no error; a
// periodic query is what finds out.
const PING_INTERVAL_MS = 30_000;
const PING_TIMEOUT_MS = 10_000;
const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 10_000;

/** Ends a connection whose events no longer matter; a late 'error' must not reach the process. */
function discard(client: pg.Client): Promise<void> {
  client.removeAllListeners();
  client.on("error", () => undefined);
  return client.end().catch(() => undefined);
}

/**
 * One LISTEN on its own connection. A pooled connection cannot carry it: the pool hands it to other
 * queries, and LISTEN belongs to the session. When the connection drops it reconnects with
 * exponential backoff (jittered, so instances do not stampede a restarted database) and reports
 * `resumed` once LISTEN holds again.
 */
class Listener {
  private client: pg.Client | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private pingTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  private stopped = false;

  constructor(
    private readonly url: string,
    private readonly channel: string,
    private readonly handlers: TNotificationHandlers,
  ) {}

  /** Connects and LISTENs; rejects when that fails, so a start-up problem is not retried silently. */
  async connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.url,
      application_name: "idp-listen",
      keepAlive: true,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      query_timeout: PING_TIMEOUT_MS,
    });
    const lost = (e?: unknown) => this.lose(client, e);
    // Registered before connecting: an 'error' event without a listener would end the process.
    client.on("error", lost);
    client.on("end", lost);
    client.on("notification", (n) => {
      if (n.channel === this.channel && n.payload !== undefined) this.handlers.message(n.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${pg.escapeIdentifier(this.channel)}`);
    } catch (e) {
      void discard(client);
      throw e;
    }
    if (this.stopped) return discard(client);
    this.client = client;
    this.pingTimer = setInterval(() => client.query("SELECT 1").catch(lost), PING_INTERVAL_MS).unref();
  }

  private lose(client: pg.Client, cause: unknown): void {
    if (this.client !== client) return;
    this.client = undefined;
    log.warn("listening connection lost; reconnecting", { channel: this.channel, reason: cause instanceof Error ? cause.message : "connection ended" });
    clearInterval(this.pingTimer);
    void discard(client);
    if (!this.stopped) this.retry();
  }

  private retry(): void {
    const delay = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** this.failures) * (0.5 + Math.random() / 2);
    this.retryTimer = setTimeout(async () => {
      try {
        await this.connect();
        this.failures = 0;
        if (this.stopped) return;
        log.info("listening again", { channel: this.channel });
        this.handlers.resumed();
      } catch (e) {
        this.failures += 1;
        log.debug("reconnect failed", { channel: this.channel, attempt: this.failures, ...describeError(e) });
        if (!this.stopped) this.retry();
      }
    }, delay);
    this.retryTimer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    const client = this.client;
    this.client = undefined;
    if (client) await discard(client);
  }
}

/** Notifications on the database at `url`: NOTIFY through the pool, LISTEN on connections of its own. */
export function pgNotifications(url: string, pool: pg.Pool): TNotifications {
  const listeners = new Set<Listener>();
  return {
    notify: async (channel, payload) => void (await pool.query("SELECT pg_notify($1, $2)", [channel, payload])),
    async listen(channel, handlers) {
      const listener = new Listener(url, channel, handlers);
      await listener.connect();
      listeners.add(listener);
      return {
        stop: async () => {
          listeners.delete(listener);
          await listener.stop();
        },
      };
    },
    async close() {
      await Promise.all([...listeners].map((l) => l.stop()));
      listeners.clear();
    },
  };
}
