import { flatValue, normalizePhone } from "../attributes/attribute-values.ts";
import { getCatalog, type TCatalog } from "../attributes/attributes.service.ts";
import { selectionFor } from "../attributes/selections.service.ts";
import { AppError } from "../errors/app-error.ts";
import { eventActorOf, type TRequestContext } from "../http/request-context.ts";
import { attributesOf, subjectOfInstance } from "./account.ts";
import { toVersionRecordV1, type TChangeUserV1, type TVersionRecordV1 } from "./api/v1.ts";
import type { TSelectionPair } from "./api/v3.ts";
import { searchAccounts } from "./users.repository.ts";
import { changeAttributes, readAccount } from "./users.service.ts";

const bad = (pos: string, desc: string): AppError => new AppError("request.invalid_values", { items: [{ error: "wrong_value", desc, pos }] });

/**
 * `*` becomes LIKE's `%`; LIKE's own wildcards are escaped. A pattern that starts with `*` can only be
 * served by the trigram index, which needs three characters to work with, so shorter ones are refused
 * rather than turned into a scan of every account.
 */
export function maskToLike(mask: string): string {
  const runs = mask.split("*");
  if (runs.every((r) => r === "")) throw bad("query", "the value needs characters besides *");
  if (mask.startsWith("*") && Math.max(...runs.map((r) => [...r].length)) < 3) {
    throw bad("query", "a value that starts with * needs a run of at least 3 characters");
  }
  return runs.map((r) => r.replace(/[\\%_]/g, (c) => `\\${c}`)).join("%");
}

/** The calling client's selections for the system scopes (v1 clients act in system mode). */
async function selectionsOf(ctx: TRequestContext): Promise<TSelectionPair> {
  if (ctx.actor.mode !== "basic") throw new AppError("auth.basic_invalid");
  const id = ctx.actor.clientId;
  return { read: await selectionFor(id, "idp_api_sys_users"), change: await selectionFor(id, "idp_api_sys_users_chg") };
}

function searchTerm(catalog: TCatalog, query: string, read: Set<string> | null): { attr: string; like: string } {
  const eq = query.indexOf("=");
  if (eq <= 0) throw bad("query", "expected {attr}={value}");
  const name = catalog.byAlias.get(query.slice(0, eq));
  const def = name ? catalog.byName.get(name) : undefined;
  // An attribute the client may not read is unknown to it: a search by it would reveal its values.
  if (!def || (read && !read.has(def.name))) throw bad("query", `unknown attribute ${query.slice(0, eq)}`);
  if (!def.searchable) throw bad("query", `${query.slice(0, eq)} is not searchable`);
  let value = query.slice(eq + 1).toLowerCase();
  if (def.type === "phone" && !value.includes("*")) value = normalizePhone(value) ?? value;
  return { attr: def.name, like: maskToLike(value) };
}

export async function searchUsersV1(ctx: TRequestContext, query: string, limit: number): Promise<TVersionRecordV1[]> {
  const [catalog, sel] = [await getCatalog(), await selectionsOf(ctx)];
  const term = searchTerm(catalog, query, sel.read);
  return (await searchAccounts(term.attr, term.like, limit)).map((a) => toVersionRecordV1(a, catalog, sel));
}

/** Any version id of an account reads its current version (the record's instanceId says which). */
export async function getUserV1(ctx: TRequestContext, instanceId: string): Promise<TVersionRecordV1> {
  const sub = subjectOfInstance(instanceId);
  if (sub === undefined) throw new AppError("user.not_found", { params: { instanceId } });
  return toVersionRecordV1(await readAccount(sub), await getCatalog(), await selectionsOf(ctx));
}

/**
 * v1 names attributes by alias and sends contacts as bare strings. A contact sent unchanged keeps its
 * confirmation; a new one is stored unconfirmed (v1 has no code flow). Unknown names pass through so
 * the shared checks report them together with every other problem.
 */
function toChanges(catalog: TCatalog, current: Record<string, unknown>, req: TChangeUserV1): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  const nameOf = (alias: string) => catalog.byAlias.get(alias) ?? alias;
  for (const [alias, value] of Object.entries(req.replaced)) {
    const name = nameOf(alias);
    const old = current[name];
    const same = old !== undefined && typeof value === "string" && flatValue(old as never) === value;
    if (!same) changes[name] = value;
  }
  const replacedNames = new Set(Object.keys(req.replaced).map(nameOf));
  const both = req.deleted.filter((alias) => replacedNames.has(nameOf(alias)));
  if (both.length) throw new AppError("request.invalid_values", { items: both.map((pos) => ({ error: "wrong_value", desc: "replaced and deleted at once", pos })) });
  for (const alias of req.deleted) changes[nameOf(alias)] = null;
  return changes;
}

export async function changeUserV1(ctx: TRequestContext, req: TChangeUserV1): Promise<TVersionRecordV1> {
  const [catalog, sel] = [await getCatalog(), await selectionsOf(ctx)];
  const sub = subjectOfInstance(req.instanceId);
  if (sub === undefined) throw new AppError("user.not_found", { params: { instanceId: req.instanceId } });
  const changes = toChanges(catalog, attributesOf(await readAccount(sub)), req);
  const opts = { contactFlag: "bare", confirmUnverified: false, allowed: sel.change, actor: eventActorOf(ctx) } as const;
  const { account } = await changeAttributes(req.instanceId, changes, opts);
  return toVersionRecordV1(account, catalog, sel);
}
