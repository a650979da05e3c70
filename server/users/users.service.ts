import { randomUUID } from "node:crypto";
import { recordEvents, type TEventActor, type TPendingEvent } from "../audit/audit.service.ts";
import { getCatalog, type TCatalog } from "../attributes/attributes.service.ts";
import { inTransaction, type TTx } from "../db/index.ts";
import { isUniqueViolation } from "../db/errors.ts";
import type { TAttrValue } from "../attributes/attribute-values.ts";
import { AppError, type TInputItem } from "../errors/app-error.ts";
import { sameJson } from "../import/canonical-json.ts";
import { invalidateUserTokens } from "../oauth/grants/token-invalidation.service.ts";
import { publishCutoffs } from "../oauth/tokens/token-cutoffs.ts";
import { publishAccountChange } from "./account-cache.ts";
import { publishRightsChange } from "../rights/rights-cache.ts";
import { publishAllGroupsChange } from "../groups/groups-cache.ts";
import { holdsRight } from "../rights/listings.service.ts";
import { attributesOf, newInstanceId, subjectOfInstance, type TAccount } from "./account.ts";
import { applyPlan, indexRows, planChanges, splitColumns, type TPendingContact, type TPlanOptions } from "./account-changes.ts";
import {
  deleteAccountIfVersion,
  findAccount,
  findExistingIds,
  findTakenValues,
  insertAccount,
  insertAccounts,
  refuseLastActiveAdmin,
  updateAccountIfVersion,
  type TIndexRow,
} from "./users.repository.ts";

// What other capabilities read or change of this one's data: they come through here, never its repository.
export { findAccount, findAccounts, findIdsByValue, findPasswordHash, findUserById, updateCredentials } from "./users.repository.ts";

export async function readAccount(subject: string): Promise<TAccount> {
  const account = await findAccount(subject);
  if (!account) throw new AppError("user.not_found", { params: { userId: subject } });
  return account;
}

/** The account a version id names; a version that is no longer current is refused as stale. */
export async function accountAtVersion(instanceId: string, tx?: TTx): Promise<TAccount> {
  const sub = subjectOfInstance(instanceId);
  const account = sub === undefined ? null : await findAccount(sub, tx);
  if (!account) throw new AppError("user.not_found", { params: { instanceId } });
  if (account.instanceId !== instanceId) throw new AppError("user.stale_instance", { params: { instanceId } });
  return account;
}

function rejectIfInvalid(items: TInputItem[]): void {
  if (items.length) throw new AppError("request.invalid_values", { items });
}

const conflictItem = (attr: string): TInputItem => ({
  error: "contact_use_violation",
  desc: `this ${attr} is already used by another account`,
  pos: attr,
});

/** Unique values (index rows and pending contacts) another account already holds. */
export async function checkUnique(rows: TIndexRow[], pending: TPendingContact[], self: string | undefined, tx?: TTx): Promise<void> {
  const wanted = [...rows.filter((r) => r.isUnique), ...pending.map((p) => ({ attr: p.attr, value: p.value.toLowerCase() }))];
  const taken = await findTakenValues(wanted.map(({ attr, value }) => ({ attr, value })), self, tx);
  rejectIfInvalid([...new Set(taken.map((t) => t.attr))].map(conflictItem));
}

/** Runs a write; a unique index that fires despite the pre-check (a concurrent writer) is the caller's 400. */
async function guardUnique<T>(fn: () => Promise<T>, attrs: string[]): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError("request.invalid_values", { items: attrs.map(conflictItem) });
    throw e;
  }
}

export type TNewAccountInput = {
  /** Else attrs.sub, else generated. */
  sub?: string;
  attrs: Record<string, unknown>;
  passwordHash?: string | null;
  roles?: string[];
  login?: string | null;
  /** Attributes an outside source (a directory) keeps: read-only to anyone else. */
  ownedAttrs?: string[];
};

/** Creates an account from catalog attributes (registration, import, console); the caller publishes the change after commit. */
export async function createAccount(
  input: TNewAccountInput,
  opts: Omit<TPlanOptions, "creating" | "confirmUnverified"> & { catalog?: TCatalog },
  tx: TTx,
): Promise<TAccount> {
  const catalog = opts.catalog ?? (await getCatalog(tx));
  // A given sub is validated like any attribute; only an absent one is generated.
  const { plan, items } = planChanges(catalog, { ...input.attrs, sub: input.sub ?? input.attrs.sub ?? randomUUID() }, { ...opts, creating: true, confirmUnverified: false });
  rejectIfInvalid(items);
  const sub = plan.set.get("sub") as string;
  const attrs = applyPlan({}, plan);
  const rows = indexRows(catalog, attrs);
  const taken = await findAccount(sub, tx);
  if (taken) rejectIfInvalid([conflictItem("sub")]);
  await checkUnique(rows, [], undefined, tx);
  const { doc, locked } = splitColumns(attrs);
  const account = { id: sub, attrs: doc, locked, instanceId: newInstanceId(sub), roles: input.roles ?? [], ownedAttrs: input.ownedAttrs ?? [] };
  await guardUnique(
    () => insertAccount({ ...account, passwordHash: input.passwordHash ?? null, login: input.login ?? null }, rows, tx),
    rows.filter((r) => r.isUnique).map((r) => r.attr),
  );
  return { ...account, createdAt: new Date(), updatedAt: new Date() };
}

export type TBatchOutcome = { ok: true; account: TAccount } | { ok: false; items: TInputItem[] };

/**
 * Creates many accounts at once (a directory's synchronisation), each checked as createAccount
 * checks one: an account refused (an invalid value, a taken sub, a unique value another account
 * holds or another of the batch has too) is reported in its place, the others are written with two
 * statements. `input.sub` that is taken is refused, not replaced: the caller chooses.
 */
export async function createAccounts(inputs: TNewAccountInput[], opts: Omit<TPlanOptions, "creating" | "confirmUnverified"> & { catalog?: TCatalog }, tx: TTx): Promise<TBatchOutcome[]> {
  const catalog = opts.catalog ?? (await getCatalog(tx));
  type TPlanned = { sub: string; attrs: Record<string, TAttrValue>; rows: TIndexRow[]; input: TNewAccountInput } | { items: TInputItem[] };
  const planned = inputs.map((input): TPlanned => {
    const { plan, items } = planChanges(catalog, { ...input.attrs, sub: input.sub ?? input.attrs.sub ?? randomUUID() }, { ...opts, creating: true, confirmUnverified: false });
    if (items.length) return { items };
    const attrs = applyPlan({}, plan);
    return { sub: plan.set.get("sub") as string, attrs, rows: indexRows(catalog, attrs), input };
  });
  const ok = planned.filter((p): p is Exclude<TPlanned, { items: TInputItem[] }> => "sub" in p);
  const existing = await findExistingIds(ok.map((p) => p.sub), tx);
  const taken = new Set((await findTakenValues(ok.flatMap((p) => p.rows.filter((r) => r.isUnique).map(({ attr, value }) => ({ attr, value }))), undefined, tx)).map((t) => `${t.attr}\u0000${t.value}`));
  // A sub or unique value two accounts of the batch share refuses each of them.
  const count = new Map<string, number>();
  // Each account's keys once (the catalog may index sub as a unique value too).
  for (const p of ok) for (const k of new Set([`sub\u0000${p.sub}`, ...p.rows.filter((r) => r.isUnique).map((r) => `${r.attr}\u0000${r.value}`)])) count.set(k, (count.get(k) ?? 0) + 1);
  const outcomes: TBatchOutcome[] = [];
  const toInsert: (Parameters<typeof insertAccount>[0] & { index: TIndexRow[] })[] = [];
  for (const p of planned) {
    if (!("sub" in p)) {
      outcomes.push({ ok: false, items: p.items });
      continue;
    }
    const clashes = p.rows.filter((r) => r.isUnique && (taken.has(`${r.attr}\u0000${r.value}`) || count.get(`${r.attr}\u0000${r.value}`)! > 1)).map((r) => r.attr);
    if (existing.has(p.sub) || count.get(`sub\u0000${p.sub}`)! > 1) clashes.unshift("sub");
    if (clashes.length) {
      outcomes.push({ ok: false, items: [...new Set(clashes)].map(conflictItem) });
      continue;
    }
    const { doc, locked } = splitColumns(p.attrs);
    const account = { id: p.sub, attrs: doc, locked, instanceId: newInstanceId(p.sub), roles: [] as string[], ownedAttrs: p.input.ownedAttrs ?? [] };
    toInsert.push({ ...account, passwordHash: p.input.passwordHash ?? null, index: p.rows });
    outcomes.push({ ok: true, account: { ...account, createdAt: new Date(), updatedAt: new Date() } });
  }
  await insertAccounts(toInsert, tx);
  return outcomes;
}

export type TChangeResult = { account: TAccount; changed: string[] };

const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/** The attributes of a change an outside source keeps for the account: each refused, saying where to change it. */
function ownedItems(account: TAccount, names: string[]): TInputItem[] {
  const owned = new Set(account.ownedAttrs);
  return [...new Set(names)].filter((n) => owned.has(n)).map((n) => ({ error: "wrong_value", desc: "this attribute is kept in the organisation's directory and can only be changed there", pos: n }));
}

/**
 * Whose attributes a person (`expectSubject`) may change at `instanceId`: their own, or those of a
 * slave account on which they hold the right change_attrs (read before the transaction, from the
 * rights cache, so a revoke counts at once). Undefined: any (an application's system token).
 */
async function changeableSubject(expectSubject: string | undefined, instanceId: string): Promise<string | undefined> {
  const target = subjectOfInstance(instanceId);
  if (expectSubject === undefined || target === undefined || target === expectSubject) return expectSubject;
  return (await holdsRight({ type: "user", id: expectSubject }, { type: "user", id: target }, "change_attrs")) ? target : expectSubject;
}

/**
 * Changes attributes of the account at `instanceId`. Of two changes from the same version exactly one
 * succeeds; the other is refused as stale and changes nothing. `onPending` starts the confirmation of
 * contacts that wait for a code, inside the same transaction.
 */
export async function changeAttributes(
  instanceId: string,
  input: Record<string, unknown>,
  opts: Omit<TPlanOptions, "creating"> & {
    expectSubject?: string;
    actor: TEventActor;
    onPending?: (tx: TTx, account: TAccount, pending: TPendingContact[]) => Promise<void>;
    /**
     * The outside source that keeps attributes of this account (a directory), making the change:
     * it may change them, and `ownedAttrs` becomes the list it keeps now. Anyone else is refused
     * an owned attribute.
     */
    owner?: { ownedAttrs: string[] };
  },
): Promise<TChangeResult> {
  const catalog = await getCatalog();
  const { plan, items } = planChanges(catalog, input, { ...opts, creating: false });
  rejectIfInvalid(items);
  const changed = [...plan.set.keys(), ...plan.remove];
  const allowed = await changeableSubject(opts.expectSubject, instanceId);
  const result = await inTransaction(async (tx) => {
    const account = await accountAtVersion(instanceId, tx);
    if (allowed !== undefined && account.id !== allowed) throw new AppError("auth.wrong_subject");
    if (!opts.owner) rejectIfInvalid(ownedItems(account, [...changed, ...plan.pending.map((p) => p.attr)]));
    const ownedAttrs = opts.owner ? [...new Set(opts.owner.ownedAttrs)].sort() : account.ownedAttrs;
    const attrs = applyPlan(attributesOf(account), plan);
    const rows = indexRows(catalog, attrs);
    await checkUnique(rows.filter((r) => plan.set.has(r.attr)), plan.pending, account.id, tx);
    let next = account;
    if (changed.length || !sameList(ownedAttrs, account.ownedAttrs)) {
      const { doc, locked } = splitColumns(attrs);
      if (locked) await refuseLastActiveAdmin(account, tx);
      next = { ...account, attrs: doc, locked, ownedAttrs, instanceId: newInstanceId(account.id), updatedAt: new Date() };
      const ok = await guardUnique(() => updateAccountIfVersion(account.id, instanceId, next, rows, tx), changed);
      if (!ok) throw new AppError("user.stale_instance", { params: { instanceId } });
    }
    if (plan.pending.length && opts.onPending) await opts.onPending(tx, next, plan.pending);
    // The change and its events commit together: never a change without its record, nor the reverse.
    const events: TPendingEvent[] = [];
    if (changed.length) events.push({ type: "user.attributes_changed", actor: { ...opts.actor, subject: account.id }, params: { attributes: changed } });
    // A new address waiting for its code is a request of the person's, worth seeing in their trail.
    if (plan.pending.length && opts.onPending) events.push({ type: "user.contact_change_started", actor: { ...opts.actor, subject: account.id }, params: { attributes: plan.pending.map((p) => p.attr) } });
    await recordEvents(events, tx);
    return next;
  });
  await publishAccountChange(result.id);
  // A lock ends what the account holds: every token issued before it fails from now on.
  if (plan.set.get("locked") === true) await invalidateUserTokens(result.id);
  return { account: result, changed };
}

/** Deletes the account at `instanceId` and, by cascade, everything that belongs to it. */
export async function deleteAccount(instanceId: string, opts: { expectSubject?: string; actor: TEventActor }): Promise<void> {
  const account = await accountAtVersion(instanceId);
  if (opts.expectSubject !== undefined && account.id !== opts.expectSubject) throw new AppError("auth.wrong_subject");
  await inTransaction(async (tx) => {
    await refuseLastActiveAdmin(account, tx);
    if (!(await deleteAccountIfVersion(account.id, instanceId, tx))) throw new AppError("user.stale_instance", { params: { instanceId } });
    await recordEvents([{ type: "user.deleted", actor: { ...opts.actor, subject: account.id } }], tx);
  });
  await publishAccountChange(account.id);
  // Its grants went with it (a trigger), also from other accounts' and applications' listings.
  await publishRightsChange();
  // Its memberships went with it (a cascade): the groups it was in list it no more.
  await publishAllGroupsChange();
  // The account's tokens fail everywhere at once: a cutoff read for a missing account cuts off all.
  await publishCutoffs(account.id);
}

/**
 * Replaces every attribute of an account with `attrs` in the caller's transaction, as a new version;
 * unique values are checked against other accounts. For writers that already decided the whole
 * result (a confirmed contact, an import).
 */
export async function writeAttributes(
  account: TAccount,
  attrs: Record<string, TAttrValue>,
  tx: TTx,
  changed: string[],
  catalog?: TCatalog,
): Promise<TAccount> {
  catalog ??= await getCatalog(tx);
  // What a directory keeps stays as it has it: an import or a confirmed contact may not change it here.
  const current = attributesOf(account);
  rejectIfInvalid(ownedItems(account, account.ownedAttrs.filter((k) => !sameJson(current[k], attrs[k]))));
  const rows = indexRows(catalog!, attrs);
  await checkUnique(rows.filter((r) => changed.includes(r.attr)), [], account.id, tx);
  const { doc, locked } = splitColumns(attrs);
  const next = { ...account, attrs: doc, locked, instanceId: newInstanceId(account.id), updatedAt: new Date() };
  const ok = await guardUnique(() => updateAccountIfVersion(account.id, account.instanceId, next, rows, tx), changed);
  if (!ok) throw new AppError("user.stale_instance", { params: { userId: account.id } });
  return next;
}

/** Stores a contact whose code was just confirmed, as verified, in the caller's transaction; the caller publishes. */
export async function setVerifiedContact(userId: string, attr: string, value: string, tx: TTx): Promise<TAccount> {
  const account = await findAccount(userId, tx);
  if (!account) throw new AppError("user.not_found", { params: { userId } });
  return writeAttributes(account, { ...attributesOf(account), [attr]: { value, vrf: true } }, tx, [attr]);
}
