import { describeError, log } from "../log/logger.ts";
import { drainOutbox, type TClock, type TDeliveryDeps } from "./delivery.service.ts";
import { unparkMessages } from "./outbox.repository.ts";
import type { TChannel } from "./templates.ts";
import { transportsFromConfig, type TTransports } from "./transports.ts";
import { effectiveMessaging, onDeliverySettingsChange } from "./delivery-settings.service.ts";

/** Retries fall due while nobody enqueues; the tick finds them. */
const TICK_MS = 5_000;

export type TDeliveryWorker = {
  /** Runs a drain now, or right after the one in progress. */
  kick(): void;
  /** Resolves when no drain is running or queued. */
  idle(): Promise<void>;
  stop(): Promise<void>;
  /** Reads the delivery settings again (the console saved some) and uses the transports they name. */
  reload(): Promise<void>;
  readonly deps: TDeliveryDeps;
};

export type TWorkerOptions = { transports?: TTransports; clock?: TClock; tickMs?: number };

/** Messages parked for want of a transport become due on the channels that have one now. */
async function unparkConfigured(deps: TDeliveryDeps): Promise<TChannel[]> {
  const configured = (Object.keys(deps.transports) as TChannel[]).filter((c) => deps.transports[c]);
  const unparked = configured.length ? await unparkMessages(configured, deps.clock()) : 0;
  log.info("delivery transports set", { channels: configured, unparked });
  return configured;
}

async function configuredTransports(): Promise<TTransports> {
  return transportsFromConfig((await effectiveMessaging()).config);
}

function createWorker(deps: TDeliveryDeps, tickMs: number, followSettings: boolean): TDeliveryWorker {
  let running: Promise<void> | null = null;
  let reloading: Promise<void> = Promise.resolve();
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
  // One reload at a time, in order: the last saved settings are the ones that stay.
  const reload = () => {
    reloading = reloading.then(async () => {
      if (stopped) return;
      deps.transports = await configuredTransports();
      await unparkConfigured(deps);
      kick();
    }).catch((e: unknown) => log.warn("delivery settings reload failed", describeError(e)));
    return reloading;
  };
  const unsubscribe = followSettings ? onDeliverySettingsChange(() => void reload()) : () => {};
  return {
    deps,
    kick,
    reload,
    idle: async () => {
      while (running) await running;
    },
    stop: async () => {
      stopped = true;
      unsubscribe();
      clearInterval(timer);
      await reloading;
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
 * Transports come from the environment and the console's settings, and follow the console's changes,
 * unless given (tests point them at loopback listeners).
 */
export async function startDeliveryWorker(opts: TWorkerOptions = {}): Promise<TDeliveryWorker> {
  const holder = globalThis as Holder;
  await holder[KEY]?.stop();
  const deps: TDeliveryDeps = {
    transports: opts.transports ?? (await configuredTransports()),
    clock: opts.clock ?? (() => new Date()),
  };
  await unparkConfigured(deps);
  const worker = createWorker(deps, opts.tickMs ?? TICK_MS, !opts.transports);
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
