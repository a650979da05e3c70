import { GreaterThanEqualsFilter, type Client, type Entry } from "ldapts";
import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import { AppError } from "../errors/app-error.ts";
import { describeError, log } from "../log/logger.ts";
import { observeDirectorySync } from "../metrics/registry.ts";
import { deleteAccount, findAccount } from "../users/users.service.ts";
import { findAllDirectories, findDirectory, findUnseenAccounts, type TDirectory } from "./directories.repository.ts";
import { syncDirectoryGroups } from "./directory-groups.service.ts";
import { accountsOfPage, lockForDirectory, type TPageItem } from "./directory-accounts.service.ts";
import { attributesToRead, binaryAttributes, firstText, stableIdOf } from "./directory-entries.ts";
import { findHighWater, findRun, findRuns, finishRun, insertRun, lastFullRunAt, saveHighWater, saveProgress, type TRunCounts, type TRunFailure, type TSyncRun } from "./directory-sync.repository.ts";
import { asService } from "./ldap-client.ts";

/*
 * Synchronisation of a directory: a full run reads every entry of the user filter (paged), makes or
 * updates its account, locks the accounts of disabled entries and deals with the accounts whose
 * entries are gone (lock, delete or keep); an incremental run reads only the entries changed since
 * the last run (by modifyTimestamp or uSNChanged). Both end with the group pass when the directory
 * maps its groups (directory-groups.service.ts). Memory stays bounded: entries are handled page by
 * page, and what is gone is found from the accounts' "seen" time, not a set of every entry.
 */

const PAGE_SIZE = 500;
const KEPT_FAILURES = 100;

type TRun = { d: TDirectory; id: string; kind: TSyncRun["kind"]; start: Date; mark: string | null; counts: TRunCounts; failures: TRunFailure[]; highWater: string | null; clockMarginMs: number };

// The directory's clock and ours may disagree: the next run asks for changes since a little before this one started.
const CLOCK_MARGIN_MS = 60_000;

/** Generalized time (RFC 4517), whole seconds, as modifyTimestamp is compared. */
const generalizedTime = (d: Date) => d.toISOString().replace(/[-:T]/g, "").replace(/\.\d+Z$/, "Z");

const newCounts = (): TRunCounts => ({ searches: 0, seen: 0, created: 0, updated: 0, locked: 0, unlocked: 0, deleted: 0, failed: 0, groupsCreated: 0, groupsUpdated: 0, membersAdded: 0, membersRemoved: 0 });

function fail(run: TRun, dn: string, e: unknown): void {
  run.counts.failed++;
  // The registry's words for a refusal; an unexpected error is logged, and the report says only that.
  const reason = e instanceof AppError ? [e.message, ...(e.details.items ?? []).map((i) => `${i.pos}: ${i.desc}`)].join("; ") : "internal error (see the log)";
  if (!(e instanceof AppError)) log.warn("directory entry not synchronised", { directory: run.d.id, dn, ...describeError(e) });
  if (run.failures.length < KEPT_FAILURES) run.failures.push({ dn, reason });
}

/**
 * Where the next incremental run starts. A USN only grows: one past the highest seen. A timestamp
 * has whole seconds and another clock: the time this run started, less the margin, so that a change
 * made while it ran (or in the same second) is read again rather than lost.
 */
function nextMark(run: TRun, usnSeen: string | null): string | null {
  if (run.d.changeAttribute === "uSNChanged") return usnSeen === null ? null : String(BigInt(usnSeen) + 1n);
  return generalizedTime(new Date(run.start.getTime() - run.clockMarginMs));
}

function highestUsn(a: string | null, b: string | undefined): string | null {
  if (b === undefined || !/^\d{1,20}$/.test(b)) return a;
  return a === null || BigInt(b) > BigInt(a) ? b : a;
}

/** One paged search; its entries are handed over page by page. */
async function eachPage(run: TRun, client: Client, filter: string, attributes: string[], onPage: (entries: Entry[]) => Promise<void>): Promise<void> {
  run.counts.searches++;
  for await (const page of client.searchPaginated(run.d.baseDn, { scope: "sub", filter, attributes, explicitBufferAttributes: binaryAttributes(run.d), paged: { pageSize: PAGE_SIZE } })) {
    await onPage(page.searchEntries);
  }
}

/** The stable ids of the entries the directory has disabled (among the changed ones, for an incremental run). */
async function disabledIds(run: TRun, client: Client, changed: string): Promise<Set<string>> {
  const ids = new Set<string>();
  if (!run.d.disabledFilter) return ids;
  await eachPage(run, client, `(&${run.d.userFilter}${run.d.disabledFilter}${changed})`, [run.d.idAttribute], async (entries) => {
    for (const e of entries) {
      const id = stableIdOf(e, run.d.idAttribute);
      if (id) ids.add(id);
    }
  });
  return ids;
}

/** A page of entries: their accounts made or updated (writes batched), then locked or unlocked where the directory's disabled state differs. */
async function syncPage(run: TRun, entries: Entry[], disabled: Set<string>): Promise<void> {
  const items: TPageItem[] = [];
  for (const entry of entries) {
    run.counts.seen++;
    if (run.d.changeAttribute === "uSNChanged") run.highWater = highestUsn(run.highWater, firstText(entry, run.d.changeAttribute));
    const externalId = stableIdOf(entry, run.d.idAttribute);
    if (externalId) items.push({ entry, externalId });
    else fail(run, entry.dn, new AppError("request.invalid_values", { desc: `the entry has no ${run.d.idAttribute}` }));
  }
  for (const outcome of await accountsOfPage(run.d, items, run.start)) {
    if ("error" in outcome) {
      fail(run, outcome.item.entry.dn, outcome.error);
      continue;
    }
    if (outcome.created) run.counts.created++;
    if (outcome.updated) run.counts.updated++;
    const off = disabled.has(outcome.item.externalId);
    const wasOff = outcome.link?.disabled ?? false;
    try {
      if (off !== wasOff && (await lockForDirectory(outcome.userId, outcome.item.entry.dn, run.start, off))) run.counts[off ? "locked" : "unlocked"]++;
    } catch (e) {
      fail(run, outcome.item.entry.dn, e);
    }
  }
}

/** After a full run: the accounts whose entries it did not see are gone from the directory. */
async function dealWithMissing(run: TRun): Promise<void> {
  if (run.d.missingPolicy === "keep") return;
  for (;;) {
    const batch = await findUnseenAccounts(run.d.id, run.start, PAGE_SIZE);
    if (!batch.length) return;
    for (const link of batch) {
      try {
        if (run.d.missingPolicy === "delete") {
          const account = await findAccount(link.userId);
          if (account) await deleteAccount(account.instanceId, { actor: { subject: link.userId } });
          run.counts.deleted++;
        } else if (await lockForDirectory(link.userId, link.dn, run.start, true)) run.counts.locked++;
      } catch (e) {
        fail(run, link.dn, e);
        // Marked seen so that the next batch moves on; the next full run tries again.
        await lockForDirectory(link.userId, link.dn, run.start, link.disabled).catch(() => undefined);
      }
    }
    await saveProgress(run.id, run.counts, run.failures);
  }
}

async function runFull(run: TRun, client: Client): Promise<void> {
  const disabled = await disabledIds(run, client, "");
  await eachPage(run, client, run.d.userFilter, [...attributesToRead(run.d), run.d.changeAttribute], async (entries) => {
    await syncPage(run, entries, disabled);
    await saveProgress(run.id, run.counts, run.failures);
  });
  await dealWithMissing(run);
}

/** Only what changed since the last run's mark; when nothing did, the run ends after that one search. */
async function runIncremental(run: TRun, client: Client, mark: string): Promise<void> {
  const changed = new GreaterThanEqualsFilter({ attribute: run.d.changeAttribute, value: mark }).toString();
  // Held in memory: what changed between two runs, not the directory.
  const entries: Entry[] = [];
  await eachPage(run, client, `(&${run.d.userFilter}${changed})`, [...attributesToRead(run.d), run.d.changeAttribute], async (page) => {
    entries.push(...page);
  });
  if (!entries.length) return;
  const disabled = await disabledIds(run, client, changed);
  for (let i = 0; i < entries.length; i += PAGE_SIZE) await syncPage(run, entries.slice(i, i + PAGE_SIZE), disabled);
}

async function execute(run: TRun, actor: TEventActor): Promise<TSyncRun["status"]> {
  let error: string | null = null;
  try {
    const mark = run.mark;
    await asService(run.d, async (client) => {
      await (run.kind === "incremental" && mark !== null ? runIncremental(run, client, mark) : runFull(run, client));
      // Every run, incremental ones too, ends with the groups: after the accounts, whose DNs their members name.
      await syncDirectoryGroups(run.d, client, { counts: run.counts, fail: (dn, e) => fail(run, dn, e) }, actor);
    });
    // A USN run that saw nothing keeps its mark; a timestamp run moves it to its own start.
    const next = nextMark(run, run.highWater) ?? mark;
    if (next !== null) await saveHighWater(run.d.id, next);
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
    log.warn("directory synchronisation failed", { directory: run.d.id, run: run.id, reason: error });
  }
  await finishRun(run.id, run.counts, run.failures, error);
  const ms = Date.now() - run.start.getTime();
  observeDirectorySync(run.kind, error ? "failed" : "done", ms / 1000, run.counts.failed);
  if (error) await recordEvent("directory.sync_failed", actor, { directory: run.d.id, run: run.id, kind: run.kind, error, ms, ...run.counts });
  else await recordEvent("directory.sync_finished", actor, { directory: run.d.id, run: run.id, kind: run.kind, ms, ...run.counts });
  return error ? "failed" : "done";
}

/**
 * Starts a synchronisation: `full` or `incremental` (a directory never synchronised is read in full).
 * Refused when one is running for the directory on any instance. With `wait`, resolves when it has
 * ended (the command line, the tests); else it goes on in the background (the console, the schedule).
 */
export async function syncDirectory(
  directoryId: string,
  kind: TSyncRun["kind"] | undefined,
  actor: TEventActor,
  opts: { wait?: boolean; clockMarginMs?: number } = {},
): Promise<{ runId: string; kind: TSyncRun["kind"]; status: TSyncRun["status"] }> {
  const d = await findDirectory(directoryId);
  if (!d) throw new AppError("directory.not_found");
  if (!d.enabled || d.mode !== "synchronised") throw new AppError("directory.not_synchronised");
  // Read once: a directory never read in full is read in full, and its run is reported as such.
  const mark = await findHighWater(d.id);
  const chosen = mark === null ? "full" : (kind ?? "incremental");
  const start = new Date();
  const id = await insertRun(d.id, chosen, start);
  if (!id) throw new AppError("directory.sync_running");
  const run: TRun = { d, id, kind: chosen, start, mark, counts: newCounts(), failures: [], highWater: null, clockMarginMs: opts.clockMarginMs ?? CLOCK_MARGIN_MS };
  const done = execute(run, actor);
  if (opts.wait) return { runId: id, kind: chosen, status: await done };
  done.catch((e: unknown) => log.error("directory synchronisation crashed", { directory: d.id, ...describeError(e) }));
  return { runId: id, kind: chosen, status: "running" };
}

const FULL_EVERY_MS = 24 * 60 * 60_000;

/**
 * Starts the synchronisations that are due: a directory never read in full, or whose last full run is
 * a day old, is read in full; otherwise one whose last run ended syncIntervalS ago gets an incremental
 * one. A run going on anywhere is left alone (the running row is the lock across instances).
 */
export async function startDueSyncs(now = new Date()): Promise<string[]> {
  const started: string[] = [];
  for (const d of await findAllDirectories()) {
    if (!d.enabled || d.mode !== "synchronised" || d.syncIntervalS === 0) continue;
    const [last] = await findRuns(d.id, 1);
    if (last?.status === "running") continue;
    const fullAt = await lastFullRunAt(d.id);
    const kind = !fullAt || now.getTime() - fullAt.getTime() >= FULL_EVERY_MS ? "full" : "incremental";
    const endedAt = last?.finishedAt ?? last?.startedAt;
    if (kind === "incremental" && endedAt && now.getTime() - endedAt.getTime() < d.syncIntervalS * 1000) continue;
    try {
      await syncDirectory(d.id, kind, { clientId: "schedule" });
      started.push(d.id);
    } catch (e) {
      if (!(e instanceof AppError && e.code === "directory.sync_running")) throw e;
    }
  }
  return started;
}

const KEY = Symbol.for("idp.directory-sync");
const TICK_MS = 60_000;

/** Every minute, in the background, on every instance (one of them wins each run). */
export function startDirectorySchedule(): void {
  const g = globalThis as { [KEY]?: NodeJS.Timeout };
  if (g[KEY]) return;
  g[KEY] = setInterval(() => {
    startDueSyncs().catch((e: unknown) => log.warn("directory schedule failed", describeError(e)));
  }, TICK_MS);
  g[KEY].unref();
}

/** A run's report: its counts, the first failures and, for a failed run, why. */
export async function syncRunReport(runId: string): Promise<TSyncRun | null> {
  return findRun(runId);
}

/** The directory's latest runs, newest first (the console's history). */
export async function latestSyncRuns(directoryId: string, take = 10): Promise<TSyncRun[]> {
  return findRuns(directoryId, take);
}
