import { getCatalog } from "../attributes/attributes.service.ts";
import { selectionFor } from "../attributes/selections.service.ts";
import { AppError } from "../errors/app-error.ts";
import type { TRequestContext } from "../http/request-context.ts";
import { compileRql, type TCompiledRql } from "../rql/rql-compile.ts";
import { parseRql } from "../rql/rql-parser.ts";
import { attributeValuesV3, readableDefs } from "../users/api/v3.ts";
import { groupFields, memberFields } from "./group-search.fields.ts";
import { findMembersOf, searchGroupRows, searchMemberRows, type TPage } from "./group-search.repository.ts";
import { cachedProfiles } from "./groups-cache.ts";
import type { TGroup } from "./groups.schemas.ts";
import { groupOrNotFound, notFound, profileOf } from "./groups.service.ts";

/*
 * Group search and the member filter: RQL compiled over the fields a caller may name, one query for
 * the page (and one for the members of the page's groups with expand=members). A page is read with
 * one row more than it shows: `more` says whether another page follows, without counting the rest.
 */

/** Rows a search answers when the RQL has no limit(); limit() may ask for up to 1000 (RQL_MAX_LIMIT). */
export const SEARCH_DEFAULT_LIMIT = 100;

export type TSearchPage<T> = { items: T[]; more: boolean };

const probe = (q: TCompiledRql): TPage => ({ limit: (q.limit ?? SEARCH_DEFAULT_LIMIT) + 1, offset: q.offset ?? 0 });

function cut<T>(rows: T[], q: TCompiledRql): TSearchPage<T> {
  const limit = q.limit ?? SEARCH_DEFAULT_LIMIT;
  return { items: rows.slice(0, limit), more: rows.length > limit };
}

type TBearer = Extract<TRequestContext["actor"], { mode: "user" | "system" }>;
function bearer(ctx: TRequestContext): TBearer {
  if (ctx.actor.mode !== "user" && ctx.actor.mode !== "system") throw new AppError("auth.token_missing");
  return ctx.actor;
}

/**
 * GET /api/v3/groups[/{profile}]/search: groups matching the RQL (404 for an unknown profile). A user
 * token finds only groups its user is a member of. Members are read only when asked for.
 */
export async function searchGroups(ctx: TRequestContext, profile: string | undefined, rql: string | undefined, withMembers: boolean): Promise<TSearchPage<TGroup>> {
  const actor = bearer(ctx);
  const profiles = profile === undefined ? await cachedProfiles() : [await profileOf(profile)];
  const q = compileRql(parseRql(rql ?? ""), groupFields(profiles));
  const memberId = actor.mode === "user" ? actor.userId : undefined;
  const page = cut(await searchGroupRows(q, { profile, memberId }, probe(q)), q);
  const members = withMembers ? await findMembersOf(page.items.map((g) => g.id)) : undefined;
  return { more: page.more, items: page.items.map((g) => ({ ...g, members: members?.get(g.id) ?? [] })) };
}

/** A member as the filter answers with expand=attrs: its sub and the attributes this client may read. */
export type TMemberV3 = Record<string, unknown> & { sub: string };

/**
 * POST /api/v3/groups/{profile}/{id}/members?rql=: the group's members whose accounts match the RQL,
 * over `sub` and the account attributes the client may read under its mode's read scope
 * (idp_api_user or idp_api_sys_users). A user token sees only groups its user is a member of (else 404).
 */
export async function searchMembers(ctx: TRequestContext, profile: string, id: string, rql: string, withAttrs: boolean): Promise<TSearchPage<string | TMemberV3>> {
  const actor = bearer(ctx);
  const group = await groupOrNotFound(id, profile);
  if (actor.mode === "user" && !group.members.includes(actor.userId)) throw notFound(id);
  const [catalog, read] = [await getCatalog(), await selectionFor(actor.clientId, actor.mode === "user" ? "idp_api_user" : "idp_api_sys_users")];
  const q = compileRql(parseRql(rql), memberFields(catalog, read));
  const page = cut(await searchMemberRows(id, q, probe(q)), q);
  if (!withAttrs) return { more: page.more, items: page.items.map((m) => m.id) };
  const defs = readableDefs(catalog, read);
  return { more: page.more, items: page.items.map((m) => ({ sub: m.id, ...attributeValuesV3(m, defs) })) };
}
