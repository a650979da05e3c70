import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import type { TTx } from "../db/index.ts";
import { AppError } from "../errors/app-error.ts";
import { deleteAttributeRow, findAllAttributes, upsertAttribute, type TAttributeRow } from "./attributes.repository.ts";
import { BUILTIN_TYPES, ZAttributeDef, ZValidators, type TAttributeDef, type TAttributeType } from "./attributes.schemas.ts";
import { publishChange } from "../cache/change-bus.ts";
import { keyedCache } from "../cache/keyed-cache.ts";
import type { TMaybePromise } from "../cache/maybe-promise.ts";

/** The catalog as the services use it: definitions in display order, with lookups by name and alias. */
export type TCatalog = {
  defs: TAttributeDef[];
  byName: Map<string, TAttributeDef>;
  /** v1 alias → attribute name (names map to themselves). */
  byAlias: Map<string, string>;
  builtin: Set<string>;
};

function toDef(row: TAttributeRow): TAttributeDef {
  return { ...row, type: row.type as TAttributeType, validators: ZValidators.parse(row.validators ?? {}) };
}

export function buildCatalog(rows: TAttributeRow[]): TCatalog {
  const defs = rows.map(toDef);
  const byAlias = new Map<string, string>();
  for (const d of defs) {
    byAlias.set(d.name, d.name);
    for (const a of d.aliases) if (!byAlias.has(a)) byAlias.set(a, d.name);
  }
  return { defs, byName: new Map(defs.map((d) => [d.name, d])), byAlias, builtin: new Set(rows.filter((r) => r.builtin).map((r) => r.name)) };
}

// Read on every attribute request and changed rarely: held in process, dropped through the change
// bus in every process when the catalog changes. The TTL only bounds a change made behind our back.
const CATALOG_TOPIC = "attribute-catalog";
const catalogCache = keyedCache<TCatalog>(CATALOG_TOPIC, { ttlMs: 10 * 60_000, maxEntries: 1 });

/**
 * The catalog, from memory without a Promise when cached (cache/maybe-promise.ts). Inside a
 * transaction pass `tx`: on the embedded database there is one connection, and a cold cache read
 * outside the transaction would wait for the transaction that waits for it.
 */
export function getCatalog(tx?: TTx): TMaybePromise<TCatalog> {
  return catalogCache.read("catalog", tx ? () => loadCatalog(tx) : loadOutsideTransaction);
}

// The cache hands its loader the key: a loader of its own, so "catalog" is not taken for a transaction
// and the hot read makes no closure per call.
const loadOutsideTransaction = () => loadCatalog();

async function loadCatalog(tx?: TTx): Promise<TCatalog> {
  return buildCatalog(await findAllAttributes(tx));
}

/** After a catalog change committed: every process drops its copy. */
export function publishCatalogChange(): Promise<void> {
  return publishChange(CATALOG_TOPIC);
}

function checkAgainst(catalog: TCatalog, def: TAttributeDef): void {
  const fixed = BUILTIN_TYPES[def.name];
  if (fixed && def.type !== fixed) {
    throw new AppError("attribute.builtin", { desc: `${def.name} is used by the service itself and must stay of type ${fixed}`, params: { attribute: def.name } });
  }
  for (const alias of def.aliases) {
    const owner = catalog.byAlias.get(alias);
    if (owner && owner !== def.name) {
      throw new AppError("attribute.alias_taken", { desc: `alias ${alias} already names ${owner}`, params: { attribute: def.name, alias } });
    }
  }
}

/** Creates or replaces one attribute definition (console and import). */
export async function saveAttribute(input: unknown, actor: TEventActor): Promise<TAttributeDef> {
  const parsed = ZAttributeDef.safeParse(input);
  if (!parsed.success) {
    throw new AppError("request.invalid_values", { items: parsed.error.issues.map((i) => ({ error: "wrong_value", desc: i.message, pos: i.path.join(".") })) });
  }
  const catalog = await getCatalog();
  checkAgainst(catalog, parsed.data);
  const existing = catalog.byName.get(parsed.data.name);
  const position = existing ? catalog.defs.indexOf(existing) : catalog.defs.length;
  await upsertAttribute(parsed.data, position);
  await publishCatalogChange();
  await recordEvent(existing ? "attribute.updated" : "attribute.created", actor, { attribute: parsed.data.name });
  return parsed.data;
}

/** Removes a definition; values already stored stay in the accounts but are no longer served. */
export async function removeAttribute(name: string, actor: TEventActor): Promise<void> {
  const catalog = await getCatalog();
  if (!catalog.byName.has(name)) throw new AppError("attribute.not_found", { params: { attribute: name } });
  if (catalog.builtin.has(name)) throw new AppError("attribute.builtin", { desc: `${name} is built in and cannot be removed`, params: { attribute: name } });
  await deleteAttributeRow(name);
  await publishCatalogChange();
  await recordEvent("attribute.removed", actor, { attribute: name });
}
