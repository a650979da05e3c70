import cluster from "node:cluster";
import { FIRST_WORKER_MARK, forkedByOurPrimary } from "../config/workers.mjs";

/*
 * A worker's side of the cluster primary (server/serve/cluster.mjs, IDP_WORKERS > 1): calls answered
 * by the primary over the IPC channel node:cluster opens, and the metrics collection the primary
 * asks every worker for. Outside a cluster (one process, `next dev`, tests) nothing here runs.
 */

type TPending = { resolve: (value: unknown) => void; reject: (e: Error) => void; timer: NodeJS.Timeout };
type TLink = {
  pending: Map<number, TPending>;
  nextId: number;
  collect?: () => Promise<unknown>;
  onLocks?: (locks: TLock[]) => void;
  /** Locks announced before anyone took them (no client authenticated yet in this worker), bounded like the primary's. */
  earlyLocks: Map<string, number>;
};
/** A client-auth key over its limit until `until` (ms since the epoch), announced by the primary. */
export type TLock = { key: string; until: number };
type TMessage = { idp?: string; id?: number; value?: unknown; error?: string; locks?: TLock[] };

/**
 * Does this process serve as one of several workers, with a primary to ask? Only a fork of our own
 * primary has one: under another cluster (PM2's cluster mode) a process serves alone.
 */
export function inClusterWorker(): boolean {
  return forkedByOurPrimary(cluster.isWorker, process.env, process.ppid) && typeof process.send === "function";
}

/**
 * Should this process run the steps that must run once per start (IDP_IMPORT)? A single process
 * does; of several workers only the first fork of the start: a worker forked later, or one forked
 * again to replace a worker that died, would otherwise re-apply the document over what the console
 * changed since (a rotated client secret reverting to the imported one).
 */
export function runsOncePerStartSteps(): boolean {
  return !inClusterWorker() || process.env[FIRST_WORKER_MARK] === "1";
}

// On globalThis: Next bundles each route separately, and a link per bundle would add a listener per
// bundle (each answering the primary's collection, each with its own call ids).
const KEY = Symbol.for("idp.primary-link");

function link(): TLink {
  const holder = globalThis as { [KEY]?: TLink };
  if (holder[KEY]) return holder[KEY];
  const l: TLink = { pending: new Map(), nextId: 1, earlyLocks: new Map() };
  holder[KEY] = l;
  process.on("message", (m: TMessage) => {
    if (m?.idp === "reply") settle(l, m);
    else if (m?.idp === "collect") void collect(l, m.id!);
    else if (m?.idp === "locked") (l.onLocks ?? ((locks) => keepEarly(l, locks)))(m.locks ?? []);
  });
  return l;
}

/** The primary keeps at most this many locks; a worker waiting for its first client keeps no more. */
const MAX_EARLY_LOCKS = 20_000;

function keepEarly(l: TLink, locks: TLock[]): void {
  for (const { key, until } of locks) {
    l.earlyLocks.delete(key);
    if (l.earlyLocks.size >= MAX_EARLY_LOCKS) l.earlyLocks.delete(l.earlyLocks.keys().next().value!);
    l.earlyLocks.set(key, until);
  }
}

function settle(l: TLink, m: TMessage): void {
  const p = l.pending.get(m.id!);
  if (!p) return;
  l.pending.delete(m.id!);
  clearTimeout(p.timer);
  if (m.error !== undefined) p.reject(new Error(`cluster primary: ${m.error}`));
  else p.resolve(m.value);
}

async function collect(l: TLink, id: number): Promise<void> {
  try {
    if (!l.collect) throw new Error("this worker collects no metrics");
    process.send!({ idp: "collected", id, metrics: await l.collect() });
  } catch (e) {
    process.send!({ idp: "collected", id, error: e instanceof Error ? e.message : String(e) });
  }
}

/** Asks the primary; rejects when it does not answer within `timeoutMs` (it may be stopping). */
export function askPrimary<T>(fn: string, args: unknown = undefined, timeoutMs = 10_000): Promise<T> {
  const l = link();
  const id = l.nextId++;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      l.pending.delete(id);
      reject(new Error(`cluster primary: no answer to ${fn} within ${timeoutMs} ms`));
    }, timeoutMs);
    l.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
    process.send!({ idp: "call", id, fn, args });
  });
}

/** Tells the primary something that needs no answer; messages on the channel keep their order. */
export function tellPrimary(fn: string, args: unknown): void {
  link();
  process.send!({ idp: "call", id: 0, fn, args });
}

/** What this worker hands the primary when it collects metrics from every worker. */
export function answerMetricsCollection(collectMetrics: () => Promise<unknown>): void {
  link().collect = collectMetrics;
}

/** Where the locks the primary announces go (they may arrive before anyone asked anything). */
export function receiveLocks(onLocks: (locks: TLock[]) => void): void {
  const l = link();
  l.onLocks = onLocks;
  const early = [...l.earlyLocks].map(([key, until]) => ({ key, until }));
  l.earlyLocks.clear();
  onLocks(early);
}
