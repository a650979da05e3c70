import { derivedOnce } from "../cache/derived-once.ts";
import { andThen, type TMaybePromise } from "../cache/maybe-promise.ts";
import { serializedOnce, type JsonText } from "../http/json-text.ts";
import { toRightsOf, toRightsOn } from "./api/v3.ts";
import { decodeCursor, toRightsOnV4 } from "./api/v4.ts";
import { assertExists, resolveParty, type TPartyType } from "./parties.ts";
import { cacheKey, readGrants } from "./rights-cache.ts";
import { findGrants, findGrantsOnPage, type TGrantRow, type TParty } from "./rights.repository.ts";
import type { TRightsOnV4 } from "./rights.schemas.ts";
import { deepFreeze } from "../cache/deep-freeze.ts";


/**
 * The rows of a subject or object, from the cache. An empty listing is told apart from an unknown
 * party by the account and client caches, so neither costs a query in steady state.
 */
function grantsOf(dir: "of" | "on", party: TParty): TMaybePromise<TGrantRow[]> {
  return andThen(readGrants(cacheKey(dir, party.type, party.id), () => findGrants(dir, party)), (rows) =>
    rows.length || party.type === "grps" ? rows : andThen(assertExists(party.type as "user" | "its", party.id), () => rows),
  );
}

/**
 * Whether `subject` holds `right` on `object` (for a master on a slave account: both users), from
 * the same cache as the listings. For the v2 slave-account operations (change_password,
 * change_attrs) and anything else that must check a right; an unknown party simply holds nothing.
 */
export async function holdsRight(subject: TParty, object: TParty, right: string): Promise<boolean> {
  const rows = await readGrants(cacheKey("of", subject.type, subject.id), () => findGrants("of", subject));
  return rows.some((r) => r.rightName === right && r.objectType === object.type && r.objectId === object.id);
}


// A listing is built once per cached rows (derived-once.ts), and frozen, since requests share it.
const rightsOfRows = derivedOnce((rows: TGrantRow[]) => deepFreeze(toRightsOf(rows)));
const rightsOnRows = derivedOnce((rows: TGrantRow[]) => deepFreeze(toRightsOn(rows)));

/** The rights a party holds, by object key. */
export function listRightsOf(party: { type: "user" | "its"; id: string }) {
  return andThen(grantsOf("of", party), rightsOfRows);
}

/** The rights held on a party, by subject key; a group is checked against `profile` when given. */
export function listRightsOn(party: { type: "user" | "its" | "grps"; id: string }, profile?: string) {
  const checked = party.type === "grps" ? resolveParty("grps", party.id, profile) : undefined;
  return andThen(checked, () => andThen(grantsOf("on", party), rightsOnRows));
}

/**
 * The rows held by a party ("of") or on it ("on"), every tag both ways, for the console's rights
 * browser: the same cache and the same 400s for an unknown party as the listings.
 */
export async function listGrantRows(dir: "of" | "on", party: { type: TPartyType; id: string; ext?: string }): Promise<TGrantRow[]> {
  if (party.type === "grps") await resolveParty("grps", party.id, party.ext || undefined);
  return await grantsOf(dir, party);
}

/** GET /api/v3/rights/of/<sub> and …/of/its/<app_id>. */
export function rightsOf(type: "user" | "its", id: string) {
  return listRightsOf({ type, id: id });
}

/** GET /api/v3/rights/on/<sub>, …/on/its/<app_id> and …/on/grps/<grp_id>?objectExt=<profile>. */
export function rightsOn(type: "user" | "its" | "grps", id: string, profile?: string) {
  return listRightsOn({ type, id: id }, profile);
}

// The listings as the API answers them: a cached listing is serialized once (json-text.ts), and every
// read until a change sends that text.

export function rightsOfAnswer(type: "user" | "its", id: string): TMaybePromise<JsonText> {
  return andThen(rightsOf(type, id), serializedOnce);
}

export function rightsOnAnswer(type: "user" | "its" | "grps", id: string, profile?: string): TMaybePromise<JsonText> {
  return andThen(rightsOn(type, id, profile), serializedOnce);
}

/**
 * GET /api/v4/rights/on/{subjectId}: the subjects holding rights on the user, with each right's tags
 * and the subject's type, a page of `limit` subjects at a time in (type, id) order. The cursor is the
 * last subject of the page (keyset), so grants made between pages neither repeat nor shift anyone.
 */
export async function rightsOnV4(subjectId: string, limit: number, after?: string): Promise<TRightsOnV4> {
  const object = { type: "user", id: subjectId };
  const { rows, more } = await findGrantsOnPage(object, limit, after === undefined ? undefined : decodeCursor(after));
  if (!rows.length && after === undefined) await assertExists("user", object.id);
  return toRightsOnV4(rows, more);
}
