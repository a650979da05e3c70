import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { TDatabase } from "../db/database.ts";
import { getDatabase } from "../db/index.ts";
import { describeError, log } from "../log/logger.ts";

/*
 * Why one change bus: production runs several processes on one PostgreSQL, so whatever a process
 * holds in memory (clients, the attribute catalog, accounts …) is a cache of the database, and a
 * change committed by one process must reach the caches of all of them. Every cache registers an
 * invalidation handler for its topic here; every service, after its transaction commits, publishes
 * which entry changed. The change applies to this process's handlers at once (so what was changed
 * here is visible here on the next line) and travels to the other processes as a NOTIFY on one
 * PostgreSQL channel, which each of them LISTENs on through a dedicated connection. NOTIFY is not
 * durable: while a listening connection is down, messages are lost, so after reconnecting every
 * topic is flushed, and a periodic flush bounds the damage of a loss nobody noticed. On the embedded
 * database there is one process and no NOTIFY, but publishing runs the same local handlers.
 */

const CHANGE_CHANNEL = "idp_changes";
/** How often every cache is flushed whatever the channel says: the bound on a silently lost message. */
const RESYNC_INTERVAL_MS = 60_000;
// PostgreSQL refuses a NOTIFY payload of 8000 bytes or more (in its default build).
const MAX_PAYLOAD_BYTES = 7_999;

/** Drops (or reloads) the entry `key` of a topic; `undefined` means every entry of that topic. */
export type TChangeHandler = (key: string | undefined) => void;

/** On the wire: origin (the sending bus), topic, and key when a single entry changed. */
const ZChangeMessage = z.object({ o: z.string(), t: z.string(), k: z.string().optional() });
type TChangeMessage = z.infer<typeof ZChangeMessage>;

/** The payload for a change; a key too long for NOTIFY becomes "everything of the topic". */
function encodeChange(message: TChangeMessage): string {
  const payload = JSON.stringify(message);
  if (Buffer.byteLength(payload) <= MAX_PAYLOAD_BYTES) return payload;
  return JSON.stringify({ o: message.o, t: message.t });
}

function decodeChange(payload: string): TChangeMessage | undefined {
  try {
    const parsed = ZChangeMessage.safeParse(JSON.parse(payload));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export class ChangeBus {
  /** Tells this bus's own messages apart when PostgreSQL delivers them back. */
  readonly origin = randomUUID();
  private readonly handlers = new Map<string, Set<TChangeHandler>>();
  private running: Promise<void> | undefined;
  private stopListening: (() => Promise<void>) | undefined;
  private resyncTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly database: () => Promise<TDatabase>,
    private readonly resyncIntervalMs = RESYNC_INTERVAL_MS,
  ) {}

  onChange(topic: string, handler: TChangeHandler): () => void {
    const set = this.handlers.get(topic) ?? new Set();
    this.handlers.set(topic, set.add(handler));
    return () => void set.delete(handler);
  }

  /**
   * Applies the change here before the first await, then tells the other processes. It never
   * rejects: the change is committed already, and a failed NOTIFY is healed by the next resync.
   */
  async publishChange(topic: string, key?: string): Promise<void> {
    this.apply(topic, key);
    try {
      const { notifications } = await this.database();
      await notifications?.notify(CHANGE_CHANNEL, encodeChange({ o: this.origin, t: topic, k: key }));
    } catch (e) {
      log.warn("change not announced to other processes; they see it at the next resync", { topic, ...describeError(e) });
    }
  }

  /** Starts listening for other processes' changes (nothing to listen to on the embedded database). */
  start(): Promise<void> {
    this.running ??= this.listen().catch((e: unknown) => {
      this.running = undefined;
      throw e;
    });
    return this.running;
  }

  async stop(): Promise<void> {
    await this.running?.catch(() => undefined);
    this.running = undefined;
    clearInterval(this.resyncTimer);
    const stop = this.stopListening;
    this.stopListening = undefined;
    await stop?.();
  }

  private async listen(): Promise<void> {
    const { notifications } = await this.database();
    if (!notifications) return;
    const listener = await notifications.listen(CHANGE_CHANNEL, {
      message: (payload) => this.receive(payload),
      resumed: () => this.flushAll(),
    });
    this.stopListening = () => listener.stop();
    this.resyncTimer = setInterval(() => this.flushAll(), this.resyncIntervalMs).unref();
  }

  private receive(payload: string): void {
    const message = decodeChange(payload);
    if (!message) return log.warn("ignored a malformed change message", { channel: CHANGE_CHANNEL });
    if (message.o !== this.origin) this.apply(message.t, message.k);
  }

  private flushAll(): void {
    for (const topic of this.handlers.keys()) this.apply(topic, undefined);
  }

  private apply(topic: string, key: string | undefined): void {
    for (const handler of this.handlers.get(topic) ?? []) {
      try {
        handler(key);
      } catch (e) {
        // One broken cache must not keep the others stale.
        log.error("change handler failed", { topic, ...describeError(e) });
      }
    }
  }
}

// One bus per process: Next bundles route handlers, tRPC and instrumentation separately, and a
// module-level bus would exist once per bundle, each with its own handlers.
const KEY = Symbol.for("idp.change-bus");
function bus(): ChangeBus {
  const holder = globalThis as { [KEY]?: ChangeBus };
  return (holder[KEY] ??= new ChangeBus(getDatabase));
}

/** Registers a cache's invalidation handler for `topic`; returns a function that unregisters it. */
export function onChange(topic: string, handler: TChangeHandler): () => void {
  return bus().onChange(topic, handler);
}

/**
 * Announces, AFTER the transaction that changed it committed, that entry `key` of `topic` changed
 * (no key: the whole topic). This process's handlers run before this returns its promise; await it
 * so the other processes are told before, say, a command-line process exits.
 */
export function publishChange(topic: string, key?: string): Promise<void> {
  return bus().publishChange(topic, key);
}

/**
 * Listens for the other processes' changes; called once at start, before serving. Closing the
 * database ends the listening connection.
 */
export function startChangeBus(): Promise<void> {
  return bus().start();
}
