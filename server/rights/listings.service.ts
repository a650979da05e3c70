import { AppError } from "../errors/app-error.ts";
import { CURRENT_SUBJECT } from "../http/authenticate.ts";
import type { TRequestContext } from "../http/request-context.ts";
import { assertExists, partyKey, resolveParty } from "./parties.ts";
import { cacheKey, cachedGrants } from "./rights-cache.ts";
import { findGrants, findGrantsOnPage, type TGrantRow, type TParty } from "./rights.repository.ts";
import type { TRightsOnV4 } from "./rights.schemas.ts";

/** "current" in user mode is the token's user; a system token has none. */
function userOf(ctx: TRequestContext, sub: string): string {
  if (sub !== CURRENT_SUBJECT) return sub;
  if (ctx.actor.mode === "user") return ctx.actor.userId;
  throw new AppError("rights.unknown_user", { desc: "a system token has no current user", params: { userId: sub } });
}

/**
 * The rows of a subject or object, from the cache. An empty listing is told apart from an unknown
 * party by the account and client caches, so neither costs a query in steady state.
 */
async function grantsOf(dir: "of" | "on", party: TParty): Promise<TGrantRow[]> {
  const rows = await cachedGrants(cacheKey(dir, party.type, party.id), () => findGrants(dir, party));
  if (!rows.length && party.type !== "grps") await assertExists(party.type as "user" | "its", party.id);
  return rows;
}

/**
 * Whether `subject` holds `right` on `object` (by default both users: a master on a slave account),
 * from the same cache as the listings. For the v2 slave-account operations (change_password,
 * change_attrs) and anything else that must check a right; an unknown party simply holds nothing.
 */
export async function holdsRight(subject: TParty, object: TParty & { ext?: string }, right: string): Promise<boolean> {
  const rows = await cachedGrants(cacheKey("of", subject.type, subject.id), () => findGrants("of", subject));
  return rows.some((r) => r.rightName === right && r.objectType === object.type && r.objectId === object.id);
}

/** object key → right → tags. */
function toRightsOf(rows: TGrantRow[]): Record<string, Record<string, string[]>> {
  const out: Record<string, Record<string, string[]>> = {};
  for (const r of rows) {
    const rights = (out[partyKey(r.objectType, r.objectId, r.objectExt)] ??= {});
    (rights[r.rightName] ??= []).push(r.tag);
  }
  return out;
}

/** subject key → rights (each once, whatever its tags). */
function toRightsOn(rows: TGrantRow[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const r of rows) {
    const rights = (out[partyKey(r.subjectType, r.subjectId)] ??= []);
    if (rights[rights.length - 1] !== r.rightName) rights.push(r.rightName);
  }
  return out;
}

/** GET /api/v3/rights/of/<sub> and …/of/its/<app_id>. */
export async function rightsOf(ctx: TRequestContext, type: "user" | "its", id: string) {
  return toRightsOf(await grantsOf("of", { type, id: type === "user" ? userOf(ctx, id) : id }));
}

/** GET /api/v3/rights/on/<sub>, …/on/its/<app_id> and …/on/grps/<grp_id>?objectExt=<profile>. */
export async function rightsOn(ctx: TRequestContext, type: "user" | "its" | "grps", id: string, profile?: string) {
  if (type === "grps") await resolveParty("grps", id, profile);
  return toRightsOn(await grantsOf("on", { type, id: type === "user" ? userOf(ctx, id) : id }));
}

// The v4 cursor: the last subject of a page, base64url of JSON [type, id]; opaque to callers.
function encodeCursor(p: TParty): string {
  return Buffer.from(JSON.stringify([p.type, p.id])).toString("base64url");
}

function decodeCursor(after: string): TParty {
  try {
    const [type, id] = JSON.parse(Buffer.from(after, "base64url").toString("utf8")) as unknown[];
    if ((type === "user" || type === "its") && typeof id === "string") return { type, id };
  } catch {
    // falls through to the 400 below
  }
  throw new AppError("request.invalid_values", { items: [{ error: "wrong_value", desc: "not a cursor this service gave", pos: "after" }] });
}

/**
 * GET /api/v4/rights/on/{subjectId}: the subjects holding rights on the user, with each right's tags
 * and the subject's type, a page of `limit` subjects at a time in (type, id) order. The cursor is the
 * last subject of the page (keyset), so grants made between pages neither repeat nor shift anyone.
 */
export async function rightsOnV4(ctx: TRequestContext, subjectId: string, limit: number, after?: string): Promise<TRightsOnV4> {
  const object = { type: "user", id: userOf(ctx, subjectId) };
  const { rows, more } = await findGrantsOnPage(object, limit, after === undefined ? undefined : decodeCursor(after));
  if (!rows.length && after === undefined) await assertExists("user", object.id);
  const items: TRightsOnV4["items"] = [];
  for (const r of rows) {
    let item = items[items.length - 1];
    if (!item || item.subject !== r.subjectId || item.subjectType !== r.subjectType) {
      item = { subject: r.subjectId, subjectType: r.subjectType as "user" | "its", rights: [] };
      items.push(item);
    }
    const last = item.rights[item.rights.length - 1];
    if (last?.name === r.rightName) last.tags.push(r.tag);
    else item.rights.push({ name: r.rightName, tags: [r.tag] });
  }
  const tail = items[items.length - 1];
  return more && tail ? { items, next: encodeCursor({ type: tail.subjectType, id: tail.subject }) } : { items };
}
