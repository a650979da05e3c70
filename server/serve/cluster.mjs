// IDP_WORKERS > 1: this process becomes a node:cluster primary that serves no
// request itself. It forks the workers (each runs server.mjs: Next, the fast path, boot), keeps
// their number up, stops them on SIGTERM/SIGINT, and answers what the workers must ask one place
// for: a metrics scrape summed over all of them, and the failed client authentications they count
// together (server/cluster/primary-link.ts is the workers' side). With one worker there is no
// primary at all: server.mjs serves in this process, exactly as before IDP_WORKERS existed.
import cluster from "node:cluster";
import { availableParallelism } from "node:os";
import promClient from "prom-client";
import { FIRST_WORKER_MARK, forkedByOurPrimary, parseWorkers, PRIMARY_MARK, usableCores } from "../config/workers.mjs";
import { FailureWindows } from "../oauth/token-endpoint/failure-windows.mjs";
import { withThreadPool } from "./threadpool.mjs";

// A worker that served for this long and then died is re-forked at once; quicker deaths back off.
const STABLE_MS = 60_000;
const MAX_BACKOFF_MS = 15_000;
// A worker that has not answered a metrics collection by then fails the scrape: a counter summed
// over fewer workers would look like a reset to Prometheus. (A worker still booting is not asked: it
// has served nothing yet; one that exited is counted as of its last collection, see retire().)
const COLLECT_TIMEOUT_MS = 5_000;
// As many as FailureWindows keeps keys: a lock is a key over its limit.
const MAX_LOCKS = 20_000;

/**
 * Returns at once in a worker and when one process is asked for; otherwise runs the primary and
 * never settles (the primary ends with process.exit), so server.mjs's code after the call runs only
 * in processes that serve.
 * @param {{ graceMs: number, log: (level: string, msg: string, fields?: object) => void }} options
 */
export function runClusterPrimary({ graceMs, log }) {
  // A worker of ours. Nothing to arrange for a primary that dies without stopping it (SIGKILL):
  // Node's cluster worker exits by itself, with code 0, when the channel to its primary closes
  // unexpectedly (lib/internal/cluster/child.js), so no orphan serves on; its requests in flight are cut.
  if (forkedByOurPrimary(cluster.isWorker, process.env, process.ppid)) return Promise.resolve();
  const workers = parseWorkers(process.env.IDP_WORKERS, process.env.DATABASE_URL || undefined, usableCores(availableParallelism()));
  if (!workers.ok) {
    process.stderr.write(`idp: cannot start: IDP_WORKERS: ${workers.reason}\n`);
    process.exit(1);
  }
  if (workers.value === 1) return Promise.resolve();
  if (cluster.isWorker) {
    // Forked by another cluster primary (PM2's cluster mode): it runs the processes, each serves alone.
    if (process.env.IDP_WORKERS?.trim()) log("warn", "IDP_WORKERS ignored: another process manager's cluster runs this process; serving as one process", { workers: workers.value });
    return Promise.resolve();
  }
  new Primary(workers.value, graceMs, log).start();
  return new Promise(() => {});
}

class Primary {
  constructor(count, graceMs, log) {
    this.count = count;
    this.graceMs = graceMs;
    this.log = log;
    /** slot (1..count) → cluster worker; a replacement takes the slot of the worker it replaces. */
    this.slots = new Map();
    this.started = false;
    this.forks = 0;
    this.stopping = 0;
    /** Workers in a row that died before they listened. */
    this.startFailures = 0;
    /** When workers died unexpectedly in the last minute. */
    this.deaths = [];
    this.failedCodes = [];
    this.windows = undefined;
    /** client-auth keys over their limit → end of their window (ms), as announced to the workers. */
    this.locks = new Map();
    this.collections = new Map();
    this.nextId = 1;
    /** The counters and histograms of the workers that exited, as of their last collection (retire()). */
    this.retired = Promise.resolve(undefined);
  }

  start() {
    for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => this.stop(signal));
    cluster.on("message", (worker, message) => this.onMessage(worker, message));
    // Boot (migrations, the signing key, the administrator, built-in clients, IDP_IMPORT) is safe
    // against instances starting together: it runs under PostgreSQL advisory locks (server/boot/boot.ts).
    // The first worker still starts alone: a wrong configuration or an unreachable database then
    // fails once with one message, and the others find a migrated database and start quickly.
    this.fork(1).once("listening", () => {
      for (let slot = 2; slot <= this.count && !this.stopping; slot++) this.fork(slot);
    });
    this.log("info", "workers starting", { workers: this.count, pid: process.pid });
  }

  fork(slot) {
    // The mark tells the fork it has a primary to ask; the first fork of the start alone applies IDP_IMPORT.
    // UV_THREADPOOL_SIZE as npm start sets it, for a primary started otherwise (threadpool.mjs).
    const pool = withThreadPool(process.env).UV_THREADPOOL_SIZE;
    const worker = cluster.fork({ IDP_WORKER: String(slot), [PRIMARY_MARK]: String(process.pid), [FIRST_WORKER_MARK]: this.forks++ === 0 ? "1" : "0", UV_THREADPOOL_SIZE: pool });
    const born = Date.now();
    let listening = false;
    this.slots.set(slot, worker);
    worker.once("listening", () => {
      listening = true;
      // Booted, so it can take them: the locks announced before, and any it may have missed while booting.
      const now = Date.now();
      const locks = [...this.locks].filter(([, until]) => until > now).map(([key, until]) => ({ key, until }));
      if (locks.length) worker.send({ idp: "locked", locks });
      this.startFailures = 0;
      this.log("info", "worker listening", { worker: slot, pid: worker.process.pid });
      worker.idpListening = true;
      if (!this.started && [...this.slots.values()].filter((w) => w.idpListening).length === this.count) {
        this.started = true;
        this.log("info", "workers started", { workers: this.count });
      }
    });
    worker.once("exit", (code, signal) => {
      this.forgetCollections(worker);
      this.retire(worker);
      // Its judgements will never settle: their slots go back (failure-windows.mjs).
      this.windows?.release(worker);
      if (this.slots.get(slot) === worker) this.slots.delete(slot);
      if (this.stopping) {
        // A worker still booting has no handler yet and dies of the signal itself: stopped, not failed.
        const stopped = code === 0 || (code === null && (signal === "SIGTERM" || signal === "SIGINT"));
        if (!stopped) this.failedCodes.push(code ?? 1);
        if (this.slots.size === 0) this.exit(this.failedCodes.length ? 1 : 0);
        return;
      }
      this.log("warn", "worker exited", { worker: slot, pid: worker.process.pid, code, signal, listening });
      const now = Date.now();
      this.deaths = this.deaths.filter((t) => now - t < STABLE_MS).concat(now);
      if (!listening) this.startFailures++;
      const next = afterWorkerExit({ started: this.started, listened: listening, livedMs: now - born, recentDeaths: this.deaths.length, startFailures: this.startFailures });
      if (next.action === "stop") {
        // A worker that cannot start now will not start by trying again: its own message says why.
        this.log("error", "a worker failed to start; stopping", { worker: slot, code });
        this.stop("start failure", 1);
        return;
      }
      if (!listening) this.log("error", "a replacement worker failed to start; trying again", { worker: slot, code, failures: this.startFailures, delayMs: next.delayMs });
      setTimeout(() => this.stopping || this.fork(slot), next.delayMs);
    });
    return worker;
  }

  /**
   * Workers stop as server.mjs always has (requests in flight finish within IDP_SHUTDOWN_GRACE); the
   * primary exits 0 once every worker exited 0. A second signal reaches the workers too, which then
   * exit at once; past the grace and a margin the primary ends what is left.
   */
  stop(signal, code = 0) {
    if (this.stopping) {
      if (Date.now() - this.stopping > 1000) for (const w of this.slots.values()) w.process.kill("SIGTERM");
      return;
    }
    this.stopping = Date.now();
    if (code) this.failedCodes.push(code);
    this.log("info", "stopping workers", { signal, workers: this.slots.size });
    if (this.slots.size === 0) return this.exit(code);
    for (const w of this.slots.values()) w.process.kill(typeof signal === "string" && signal.startsWith("SIG") ? signal : "SIGTERM");
    setTimeout(() => {
      this.log("warn", "workers still running past the shutdown grace: killed", { workers: this.slots.size });
      for (const w of this.slots.values()) w.process.kill("SIGKILL");
    }, this.graceMs + 15_000).unref();
  }

  exit(code) {
    this.log("info", "stopped", { code });
    process.exit(code);
  }

  onMessage(worker, message) {
    if (message?.idp === "call") return this.answerCall(worker, message);
    if (message?.idp === "collected") return this.collected(worker, message);
  }

  answerCall(worker, { id, fn, args }) {
    // Id 0: the worker wants no answer (tellPrimary).
    const reply = (value, error) => id && worker.isConnected() && worker.send({ idp: "reply", id, value, error });
    try {
      if (fn === "metrics") this.collectMetrics().then((text) => reply(text), (e) => reply(undefined, String(e?.message ?? e)));
      else if (fn === "authWindows") reply(this.authWindows(worker, args));
      else reply(undefined, `unknown call ${fn}`);
    } catch (e) {
      reply(undefined, String(e?.message ?? e));
    }
  }

  /**
   * Failed client authentications counted for the whole machine, as one process counted them before
   * (server/clients/client-auth-limits.ts): N workers must not admit N times the limit. The window's
   * length comes from the workers' validated configuration.
   */
  authWindows(worker, { method, limits, failed, windowMs }) {
    this.windowMs = windowMs;
    this.windows ??= new FailureWindows(() => this.windowMs);
    // Slots are the asking worker's: given back by it, or when it exits.
    if (method === "reserve") return this.windows.reserve(limits, worker);
    if (method === "settle") return this.announceLocks(this.windows.settle(limits, failed, worker));
    if (method === "fail") return this.announceLocks(this.windows.fail(limits));
    throw new Error(`unknown method ${method}`);
  }

  /**
   * Keys that just reached their limit are locked until their window ends: every worker learns it
   * now (before the caller's answer, which follows on the same channel), so that a locked key is
   * refused without asking here, and a right secret that a worker has verified before costs no
   * message at all (client-auth-limits.ts). A worker forked later gets the locks still running.
   */
  announceLocks(reached) {
    const now = Date.now();
    for (const [key, until] of this.locks) if (until <= now) this.locks.delete(key);
    const locks = reached.map((key) => ({ key, until: this.windows.windowEnd(key) ?? now }));
    for (const l of locks) {
      if (this.locks.size >= MAX_LOCKS) this.locks.delete(this.locks.keys().next().value);
      this.locks.set(l.key, l.until);
    }
    if (locks.length) for (const w of this.slots.values()) if (w.isConnected()) w.send({ idp: "locked", locks });
    return reached;
  }

  /** Every worker's registry as JSON, summed by prom-client's aggregator (counters and histograms add up). */
  collectMetrics() {
    const workers = [...this.slots.values()].filter((w) => w.isConnected() && w.idpListening);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const c = { pending: new Set(workers), parts: [], resolve, reject };
      c.timer = setTimeout(() => this.finishCollection(id, new Error("a worker did not answer the metrics collection in time")), COLLECT_TIMEOUT_MS);
      this.collections.set(id, c);
      for (const w of workers) w.send({ idp: "collect", id });
      if (!workers.length) this.finishCollection(id);
    });
  }

  collected(worker, { id, metrics, error }) {
    const c = this.collections.get(id);
    if (!c || !c.pending.delete(worker)) return;
    if (error) return this.finishCollection(id, new Error(error));
    worker.idpLastMetrics = metrics;
    c.parts.push(metrics);
    if (c.pending.size === 0) this.finishCollection(id);
  }

  /**
   * A worker that exits keeps counting: its counters and histograms as last collected stay in every
   * later sum, so a replacement that starts from 0 does not make the machine's counters go down (a
   * reset to Prometheus). What it counted after its last collection is lost. Its gauges go with it.
   */
  retire(worker) {
    const last = worker.idpLastMetrics;
    if (!last) return;
    const counting = last.filter((m) => m.type === "counter" || m.type === "histogram");
    this.retired = this.retired
      .then((before) => promClient.AggregatorRegistry.aggregate(before ? [before, counting] : [counting]).getMetricsAsJSON())
      .catch((e) => {
        this.log("error", "metrics of an exited worker dropped", { err: String(e?.message ?? e) });
        return undefined;
      });
  }

  /** A worker that exits during a collection fails it: its share is missing. */
  forgetCollections(worker) {
    for (const [id, c] of this.collections) if (c.pending.has(worker)) this.finishCollection(id, new Error("a worker exited during the metrics collection"));
  }

  finishCollection(id, error) {
    const c = this.collections.get(id);
    if (!c) return;
    this.collections.delete(id);
    clearTimeout(c.timer);
    if (error) return c.reject(error);
    this.retired
      .then((retired) => promClient.AggregatorRegistry.aggregate(retired ? [...c.parts, retired] : c.parts).metrics())
      .then(c.resolve, c.reject);
  }
}

/**
 * What the primary does when a worker exits on its own (not stopping). Before every worker has
 * started, it stops: a worker that cannot start now (configuration, database) will not by trying
 * again, and its own message says why. Once started, it forks a replacement, at once for a worker
 * that served STABLE_MS; quicker deaths back off with the deaths of the last minute (a request that
 * kills whoever serves it must not keep every core busy booting) and with the replacements in a row
 * that failed to start (a database outage), up to MAX_BACKOFF_MS, for as long as it takes: the
 * workers still serving must not be stopped for it.
 * @param {{ started: boolean, listened: boolean, livedMs: number, recentDeaths: number, startFailures: number }} s
 *   recentDeaths: deaths in the last minute, this one included; startFailures: failed starts in a row, this one included
 * @returns {{ action: "stop" } | { action: "fork", delayMs: number }}
 */
export function afterWorkerExit({ started, listened, livedMs, recentDeaths, startFailures }) {
  if (!started) return { action: "stop" };
  if (listened && livedMs >= STABLE_MS) return { action: "fork", delayMs: 0 };
  const exponent = Math.max(recentDeaths, listened ? 0 : startFailures) - 1;
  return { action: "fork", delayMs: Math.min(MAX_BACKOFF_MS, 250 * 2 ** Math.min(exponent, 16)) };
}
