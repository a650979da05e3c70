import { recordEvents, type TEventActor } from "../audit/audit.service.ts";
import { isForeignKeyViolation } from "../db/errors.ts";
import { inTransaction, type TTx } from "../db/index.ts";
import { AppError } from "../errors/app-error.ts";
import { eventActorOf, type TRequestContext } from "../http/request-context.ts";
import { definitionsByName } from "./definitions.service.ts";
import { KIND_OF, unknownParty, resolveParty, type TPartyType, type TResolvedParty } from "./parties.ts";
import { cacheKey, publishRightsChange } from "./rights-cache.ts";
import { deleteGrants, insertGrants, lockParty, lockSubjects, type TGrantTarget } from "./rights.repository.ts";
import type { TRightRecord } from "./rights.schemas.ts";

// What other capabilities read or change of this one's data: they come through here, never its repository.
export { insertSeedGrants } from "./rights.repository.ts";

/**
 * Every right must be defined, and a grant must fit its kinds of subject and object: the first that
 * does not is the 400. A revoke skips the kinds, so grants made before a definition was narrowed can go.
 */
async function assertDefined(rights: string[], subject: TResolvedParty, object: TResolvedParty, checkKinds: boolean): Promise<void> {
  const defs = await definitionsByName();
  for (const right of rights) {
    const def = defs.get(right);
    if (!def) throw new AppError("rights.unknown_right", { params: { right } });
    if (!checkKinds) continue;
    const subjectKind = KIND_OF[subject.type];
    const objectKind = KIND_OF[object.type];
    if (!def.subjectKinds.includes(subjectKind)) throw new AppError("rights.kind_not_allowed", { params: { right, subjectKind } });
    if (!def.objectKinds.includes(objectKind)) throw new AppError("rights.kind_not_allowed", { params: { right, objectKind } });
  }
}

/** Checks the record (subject, object, rights) and turns it into what is stored. */
async function targetOf(r: TRightRecord, change: TGrantChange): Promise<TGrantTarget> {
  const subject = await resolveParty(r.subjectType ?? "user", r.subject);
  const object = await resolveParty(r.objectType ?? "user", r.object, r.objectExt);
  await assertDefined(r.rights, subject, object, change === "granted");
  return { subject, object };
}

export type TGrantChange = "granted" | "revoked";

/** The caches said both parties exist; in the transaction their rows are locked, and one deleted since is the 400 after all. */
async function lockParties(t: TGrantTarget, tx: TTx): Promise<void> {
  for (const p of [t.subject, t.object]) {
    if (await lockParty(p, tx)) continue;
    throw unknownParty(p.type as TPartyType, p.id);
  }
}

export type TRightsChange = { change: TGrantChange; record: TRightRecord };

/** One change inside the caller's transaction: the rows and the security event (`note` adds to its params, as the console's "by"). */
async function applyChange({ change, record: r }: TRightsChange, t: TGrantTarget, by: TEventActor, note: Record<string, unknown>, tx: TTx): Promise<number> {
  if (change === "granted") await lockParties(t, tx);
  const n = change === "granted" ? await insertGrants(t, r.rights, r.tags, tx) : await deleteGrants(t, r.rights, r.tags, tx);
  const params = { subject: r.subject, subjectType: t.subject.type, object: r.object, objectType: t.object.type, rights: r.rights, tags: r.tags, changedTags: n };
  // The event belongs to the user who receives or loses the rights; the client is who acted.
  const eventSubject = t.subject.type === "user" ? t.subject.id : by.subject;
  await recordEvents([{ type: `rights.${change}`, actor: { ...by, subject: eventSubject }, params: { ...params, actingUser: by.subject ?? null, ...note } }], tx);
  return n;
}

/**
 * Grants (adds the tags to each right) or revokes (removes just those tags; a right goes with its
 * last tag), several records all or nothing: every record is checked first (the first bad one is the
 * error, `onInvalid` may recast it with the record's index), then one transaction changes the rows
 * in the given order, holding the subjects' locks: parallel calls on one subject's rights end as a
 * serial order would, whatever order they name them in; the security events are written in the same transaction. `by` names who acted.
 */
export async function changeRightsTogether(
  changes: TRightsChange[],
  by: TEventActor,
  onInvalid?: (e: unknown, index: number) => never,
  note: Record<string, unknown> = {},
): Promise<number> {
  const targets: TGrantTarget[] = [];
  for (const [i, c] of changes.entries()) targets.push(await targetOf(c.record, c.change).catch((e: unknown) => (onInvalid ? onInvalid(e, i) : Promise.reject(e))));
  const counts = await inTransaction(async (tx) => {
    await lockSubjects(targets.map((t) => t.subject), tx);
    const n: number[] = [];
    for (const [i, c] of changes.entries()) n.push(await applyChange(c, targets[i]!, by, note, tx));
    return n;
  }).catch((e: unknown) => {
    // A definition deleted (forced) between the check and the insert.
    if (isForeignKeyViolation(e)) throw new AppError("rights.unknown_right", { params: { right: changes.flatMap((c) => c.record.rights).join(",") } });
    throw e;
  });
  const keys = targets.flatMap((t, i) => (counts[i] ? [cacheKey("of", t.subject.type, t.subject.id), cacheKey("on", t.object.type, t.object.id)] : []));
  if (keys.length) await publishRightsChange(...keys);
  return counts.reduce((a, b) => a + b, 0);
}

/** One record: see changeRightsTogether. */
export function changeRights(change: TGrantChange, r: TRightRecord, by: TEventActor, note: Record<string, unknown> = {}): Promise<number> {
  return changeRightsTogether([{ change, record: r }], by, undefined, note);
}

/** PUT /api/v3/rights. */
export async function grantRights(ctx: TRequestContext, r: TRightRecord): Promise<void> {
  await changeRights("granted", r, eventActorOf(ctx));
}

/** DELETE /api/v3/rights. */
export async function revokeRights(ctx: TRequestContext, r: TRightRecord): Promise<void> {
  await changeRights("revoked", r, eventActorOf(ctx));
}
