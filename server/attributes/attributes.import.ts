import type { TTx } from "../db/index.ts";
import { AppError } from "../errors/app-error.ts";
import { findAllAttributes, saveSelection, upsertAttribute } from "./attributes.repository.ts";
import { ATTRIBUTE_SCOPES, BUILTIN_TYPES, type TAttributeDef, type TAttributeScope } from "./attributes.schemas.ts";
import { buildCatalog, type TCatalog } from "./attributes.service.ts";

export type TAttributeImportResult = { created: string[]; updated: string[]; unchanged: string[] };

/** The definition's own fields in a fixed order: stored rows carry more (position, builtin). */
const comparable = (d: TAttributeDef) =>
  JSON.stringify([d.name, d.type, d.required, d.unique, d.unmodifiable, d.searchable, d.aliases, Object.entries(d.validators).sort()]);

/**
 * Upserts the document's attribute definitions; attributes it does not list are kept (a document
 * describes what it knows, not the whole catalog). Aliases must stay unambiguous across the result.
 */
export async function applyAttributeImport(defs: TAttributeDef[], tx: TTx): Promise<TAttributeImportResult> {
  const result: TAttributeImportResult = { created: [], updated: [], unchanged: [] };
  if (defs.length === 0) return result;
  const existing = buildCatalog(await findAllAttributes(tx));
  const merged = new Map(existing.defs.map((d) => [d.name, d]));
  for (const d of defs) merged.set(d.name, d);
  const problems = checkMerged([...merged.values()], defs);
  if (problems.length) throw new AppError("import.invalid_document", { items: problems });
  for (const def of defs) {
    const old = existing.byName.get(def.name);
    if (old && comparable(old) === comparable(def)) {
      result.unchanged.push(def.name);
      continue;
    }
    await upsertAttribute(def, old ? existing.defs.indexOf(old) : existing.defs.length + result.created.length, tx);
    (old ? result.updated : result.created).push(def.name);
  }
  return result;
}

function checkMerged(all: TAttributeDef[], imported: TAttributeDef[]) {
  const items: { error: string; desc: string; pos: string }[] = [];
  const owner = new Map<string, string>();
  for (const d of all) owner.set(d.name, d.name);
  for (const d of all) {
    for (const a of d.aliases) {
      if (owner.has(a) && owner.get(a) !== d.name) {
        const i = imported.findIndex((x) => x.name === d.name);
        items.push({ error: "wrong_value", desc: `alias ${a} already names ${owner.get(a)}`, pos: `$.attributes[${i}].aliases` });
      }
      owner.set(a, d.name);
    }
  }
  imported.forEach((d, i) => {
    const fixed = BUILTIN_TYPES[d.name];
    if (fixed && d.type !== fixed) items.push({ error: "wrong_value", desc: `${d.name} is built in and must stay of type ${fixed}`, pos: `$.attributes[${i}].type` });
  });
  return items;
}

export type TSelectionInput = Partial<Record<TAttributeScope, string[]>>;

/** The catalog as this transaction sees it (the document may have just added attributes). */
export async function catalogIn(tx: TTx): Promise<TCatalog> {
  return buildCatalog(await findAllAttributes(tx));
}

/**
 * A client's `attributes` in the document is the whole truth for it: an unlisted scope means all.
 * Clients without `attributes` keep what the console set.
 */
export async function applySelectionImport(clients: { id: string; attributes?: TSelectionInput }[], catalog: TCatalog, tx: TTx): Promise<string[]> {
  const items = clients.flatMap((c, i) =>
    Object.entries(c.attributes ?? {}).flatMap(([scope, names]) =>
      names.filter((n) => !catalog.byName.has(n)).map((n) => ({ error: "wrong_value", desc: `no attribute ${n} in the catalog`, pos: `$.clients[${i}].attributes.${scope}` })),
    ),
  );
  if (items.length) throw new AppError("import.invalid_document", { items });
  const withSelections = clients.filter((c) => c.attributes);
  for (const c of withSelections) for (const scope of ATTRIBUTE_SCOPES) await saveSelection(c.id, scope, c.attributes![scope] ?? null, tx);
  return withSelections.map((c) => c.id);
}
