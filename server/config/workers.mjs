// Shared by server/config/config.ts and the cluster primary (server/serve/cluster.mjs, plain JavaScript
// that starts before any bundle), so both agree on how many server processes IDP_WORKERS asks for.
import { readFileSync } from "node:fs";

export const MAX_WORKERS = 64;

/**
 * IDP_WORKERS: unset or empty means one process per core on PostgreSQL and one on the embedded
 * database, which belongs to the process that opened it (a second one could not open it).
 * @param {string | undefined} raw
 * @param {string | undefined} databaseUrl DATABASE_URL; unset or empty: the embedded database
 * @param {number} cores usableCores(os.availableParallelism())
 * @returns {{ ok: true, value: number } | { ok: false, reason: string }}
 */
export function parseWorkers(raw, databaseUrl, cores) {
  const embedded = !databaseUrl;
  if (raw === undefined || raw.trim() === "") return { ok: true, value: embedded ? 1 : Math.max(1, Math.min(cores, MAX_WORKERS)) };
  const value = /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!Number.isInteger(value) || value < 1 || value > MAX_WORKERS) {
    return { ok: false, reason: `must be a whole number between 1 and ${MAX_WORKERS} (got "${raw}")` };
  }
  if (embedded && value > 1) {
    return { ok: false, reason: `must be 1 on the embedded database, which one process owns; set DATABASE_URL to run several workers (got "${raw}")` };
  }
  return { ok: true, value };
}

/**
 * The cores a container may use: cgroup v2's cpu.max ("QUOTA PERIOD", or "max PERIOD" for no limit),
 * rounded up, at least 1; undefined when there is no limit or the text is not that. Node 20's
 * availableParallelism() counts the machine's cores and ignores the quota, so a container limited
 * to 2 CPUs on a 64-core host would otherwise start 64 workers.
 * @param {string | undefined} cpuMax the content of /sys/fs/cgroup/cpu.max
 * @returns {number | undefined}
 */
export function cgroupCpuLimit(cpuMax) {
  const m = /^\s*(\d+|max)\s+(\d+)\s*$/.exec(cpuMax ?? "");
  if (!m || m[1] === "max" || Number(m[2]) === 0) return undefined;
  return Math.max(1, Math.ceil(Number(m[1]) / Number(m[2])));
}

/**
 * The cores IDP_WORKERS defaults to: the machine's, or fewer under a cgroup v2 CPU quota.
 * @param {number} cores os.availableParallelism()
 * @param {() => string | undefined} readCpuMax
 */
export function usableCores(cores, readCpuMax = readCgroupCpuMax) {
  const limit = cgroupCpuLimit(readCpuMax());
  return limit === undefined ? cores : Math.min(cores, limit);
}

function readCgroupCpuMax() {
  try {
    return readFileSync("/sys/fs/cgroup/cpu.max", "utf8");
  } catch {
    return undefined;
  }
}

/**
 * The environment variable with which the cluster primary (server/serve/cluster.mjs) marks its
 * forks: the primary's pid. A process forked by another node:cluster primary (PM2's cluster mode,
 * say) is a cluster worker too, but it has no primary of ours to ask and serves as a single process.
 */
export const PRIMARY_MARK = "IDP_PRIMARY_PID";

/**
 * Was this process forked by our cluster primary?
 * @param {boolean} isWorker node:cluster's isWorker
 * @param {Record<string, string | undefined>} env
 * @param {number} ppid
 */
export function forkedByOurPrimary(isWorker, env, ppid) {
  return isWorker && env[PRIMARY_MARK] !== undefined && env[PRIMARY_MARK] === String(ppid);
}

/** Set to "1" by the primary for the first fork of a start only: that worker applies IDP_IMPORT. */
export const FIRST_WORKER_MARK = "IDP_FIRST_WORKER";
