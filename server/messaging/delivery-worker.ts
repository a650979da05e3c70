import { getConfig } from "../config/config.ts";
import { describeError, log } from "../log/logger.ts";
import { drainOutbox, type TClock, type TDeliveryDeps } from "./delivery.service.ts";
import { unparkMessages } from "./outbox.repository.ts";
import type { TChannel } from "./templates.ts";
import { transportsFromConfig, type TTransports } from "./transports.ts";

/** Retries fall due while nobody enqueues; the tick finds them. */
const TICK_MS = 5_000;

export type TDeliveryWorker = {
  /** Runs a drain now, or right after the one in progress. */
  kick(): void;
  /** Resolves when no drain is running or queued. */
  idle(): Promise<void>;
  stop(): Promise<void>;
  readonly deps: TDeliveryDeps;
};

export type TWorkerOptions = { transports?: TTransports; clock?: TClock; tickMs?: number };

function createWorker(deps: TDeliveryDeps, tickMs: number): TDeliveryWorker {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const runDrains = async () => {
    do {
      again = false;
      await drainOutbox(deps).catch((e: unknown) => log.warn("outbox drain failed", describeError(e)));
    } while (again && !stopped);
  };
  const kick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = runDrains().finally(() => {
      running = null;
    });
  };
  const timer = setInterval(kick, tickMs);
  // The tick must not keep a finished process (a CLI command, a test run) alive.
  timer.unref();
  return {
    deps,
    kick,
    idle: async () => {
      while (running) await running;
    },
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      while (running) await running;
    },
  };
}

// Route handlers and instrumentation are separate bundles in Next; globalThis is what they share.
const KEY = Symbol.for("idp.delivery-worker");
type Holder = { [KEY]?: TDeliveryWorker };

/**
 * Starts the process's delivery worker (at boot): messages parked for want of a transport become due
 * if their channel has one now, and whatever a previous run left pending is sent at once.
 * Transports come from configuration unless given (tests point them at loopback listeners).
 */
export async function startDeliveryWorker(opts: TWorkerOptions = {}): Promise<TDeliveryWorker> {
  const holder = globalThis as Holder;
  await holder[KEY]?.stop();
  const deps: TDeliveryDeps = {
    transports: opts.transports ?? transportsFromConfig(getConfig().messaging),
    clock: opts.clock ?? (() => new Date()),
  };
  const configured = (Object.keys(deps.transports) as TChannel[]).filter((c) => deps.transports[c]);
  const unparked = configured.length ? await unparkMessages(configured, deps.clock()) : 0;
  log.info("delivery worker started", { channels: configured, unparked });
  const worker = createWorker(deps, opts.tickMs ?? TICK_MS);
  holder[KEY] = worker;
  worker.kick();
  return worker;
}

/** The running worker, if this process has one. */
export function deliveryWorker(): TDeliveryWorker | undefined {
  return (globalThis as Holder)[KEY];
}

export async function stopDeliveryWorker(): Promise<void> {
  const holder = globalThis as Holder;
  const worker = holder[KEY];
  holder[KEY] = undefined;
  await worker?.stop();
}

/**
 * Call after the transaction that enqueued a message has committed: delivery starts at once instead
 * of at the next tick. Never throws and never waits; without a worker (CLI, tests) it does nothing.
 */
export function kickDelivery(): void {
  deliveryWorker()?.kick();
}
