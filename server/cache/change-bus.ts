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
 * topic is flushed. Every minute each bus also sends itself a heartbeat through the channel: when it
 * comes back, every change committed before it was delivered too (PostgreSQL delivers in commit
 * order), so the caches stay; when it does not, the bus flushes every topic. A change whose NOTIFY
 * failed is sent again with the next heartbeat. Flushing a healthy cache every minute would instead
 * make every process re-read every hot entry at the same moment. On the embedded database there is
 * one process and no NOTIFY, but publishing runs the same local handlers.
 */

const CHANGE_CHANNEL = "idp_changes";
/** How often the channel is proven with a heartbeat (and changes whose NOTIFY failed are sent again). */
const HEARTBEAT_INTERVAL_MS = 60_000;
/** A heartbeat not back by then: the channel lost it, and maybe changes with it. */
const HEARTBEAT_TIMEOUT_MS = 10_000;
/** The topic no cache uses: a bus's own heartbeat. */
const HEARTBEAT_TOPIC = "";
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
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private heartbeats = 0;
  /** The heartbeat sent and not yet back, with the timer that flushes when it stays away. */
  private awaiting: { key: string; timer: NodeJS.Timeout } | undefined;
  /** Changes whose NOTIFY failed, by topic (a key, or undefined for the whole topic), sent again later. */
  private readonly unsent = new Map<string, Set<string | undefined>>();

  constructor(
    private readonly database: () => Promise<TDatabase>,
    private readonly heartbeatIntervalMs = HEARTBEAT_INTERVAL_MS,
    private readonly heartbeatTimeoutMs = HEARTBEAT_TIMEOUT_MS,
  ) {}

  onChange(topic: string, handler: TChangeHandler): () => void {
    const set = this.handlers.get(topic) ?? new Set();
    this.handlers.set(topic, set.add(handler));
    return () => void set.delete(handler);
  }

  /**
   * Applies the change here before the first await, then tells the other processes. It never
   * rejects: the change is committed already, and a failed NOTIFY is sent again with the next heartbeat.
   */
  async publishChange(topic: string, key?: string): Promise<void> {
    this.apply(topic, key);
    if (!(await this.announce(topic, key))) {
      this.unsent.set(topic, (this.unsent.get(topic) ?? new Set()).add(key));
      log.warn("change not announced to other processes; sent again with the next heartbeat", { topic });
    }
  }

  /** NOTIFY for one change; false when it failed. */
  private async announce(topic: string, key: string | undefined): Promise<boolean> {
    try {
      const { notifications } = await this.database();
      await notifications?.notify(CHANGE_CHANNEL, encodeChange({ o: this.origin, t: topic, k: key }));
      return true;
    } catch (e) {
      log.debug("NOTIFY failed", { topic, ...describeError(e) });
      return false;
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
    clearInterval(this.heartbeatTimer);
    clearTimeout(this.awaiting?.timer);
    this.awaiting = undefined;
    const stop = this.stopListening;
    this.stopListening = undefined;
    await stop?.();
  }

  /** Sends again what failed, then a heartbeat that must come back within the timeout. */
  private async heartbeat(): Promise<void> {
    await this.resend();
    if (this.awaiting) return;
    const key = `${++this.heartbeats}`;
    const timer = setTimeout(() => {
      this.awaiting = undefined;
      log.warn("change channel heartbeat did not come back; dropping every cache", { channel: CHANGE_CHANNEL });
      this.flushAll();
    }, this.heartbeatTimeoutMs).unref();
    this.awaiting = { key, timer };
    // A NOTIFY that fails leaves the timer to flush: nothing proves the channel now.
    await this.announce(HEARTBEAT_TOPIC, key);
  }

  /** Sends again the changes whose NOTIFY failed; what fails again stays for the next time. */
  private async resend(): Promise<void> {
    for (const [topic, keys] of [...this.unsent]) {
      // Many failed keys of a topic, or a failed "whole topic", go as one whole-topic change.
      if (keys.size > 100 || keys.has(undefined)) {
        if (await this.announce(topic, undefined)) this.unsent.delete(topic);
        continue;
      }
      for (const key of [...keys]) if (await this.announce(topic, key)) keys.delete(key);
      if (!keys.size) this.unsent.delete(topic);
    }
  }

  /**
   * For a process about to exit (the command line): tries a few times more to announce what failed,
   * since no later heartbeat of this process will. True when nothing is left unannounced.
   */
  async drain(attempts = 5): Promise<boolean> {
    for (let i = 0; i < attempts && this.unsent.size; i++) {
      if (i) await new Promise((r) => setTimeout(r, 200 * 2 ** i));
      await this.resend();
    }
    return this.unsent.size === 0;
  }

  private heartbeatBack(key: string | undefined): void {
    if (!this.awaiting || this.awaiting.key !== key) return;
    clearTimeout(this.awaiting.timer);
    this.awaiting = undefined;
  }

  private async listen(): Promise<void> {
    const { notifications } = await this.database();
    if (!notifications) return;
    const listener = await notifications.listen(CHANGE_CHANNEL, {
      message: (payload) => this.receive(payload),
      resumed: () => this.flushAll(),
    });
    this.stopListening = () => listener.stop();
    this.heartbeatTimer = setInterval(() => void this.heartbeat(), this.heartbeatIntervalMs).unref();
  }

  private receive(payload: string): void {
    const message = decodeChange(payload);
    if (!message) return log.warn("ignored a malformed change message", { channel: CHANGE_CHANNEL });
    if (message.t === HEARTBEAT_TOPIC) {
      if (message.o === this.origin) this.heartbeatBack(message.k);
    } else if (message.o !== this.origin) this.apply(message.t, message.k);
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
 * Before a command-line process exits: announces again the changes whose NOTIFY failed (a server
 * does that with its heartbeat). False when some are still unannounced; the running servers then
 * see them when their cached entries expire.
 */
export function drainChanges(): Promise<boolean> {
  return bus().drain();
}

/**
 * Listens for the other processes' changes; called once at start, before serving. Closing the
 * database ends the listening connection.
 */
export function startChangeBus(): Promise<void> {
  return bus().start();
}
