import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import { publishChange } from "../cache/change-bus.ts";
import { keyedCache } from "../cache/keyed-cache.ts";
import { inTransaction, type TTx } from "../db/index.ts";
import { AppError } from "../errors/app-error.ts";
import { countGrants, deleteDefinition, findDefinitions, insertMissingDefinitions, lockDefinition, upsertDefinition, type TDefinitionRow, type TDefinitionWrite } from "./rights.repository.ts";
import { publishRightsChange } from "./rights-cache.ts";
import type { TObjectKind, TRightDefinition, TRightDefinitionImport, TRightDefinitionInput, TSubjectKind } from "./rights.schemas.ts";
import type { TMaybePromise } from "../cache/maybe-promise.ts";

/** The built-in rights between users (a master account's rights on its subordinate accounts), as BUILTIN_RIGHT_NAMES lists them. */
export const BUILTIN_RIGHTS: TDefinitionWrite[] = [
  {
    name: "change_password",
    descriptionRu: "Смена пароля подчинённой учётной записи",
    descriptionEn: "Change the password of a subordinate account",
    subjectKinds: ["user"],
    objectKinds: ["user"],
    builtin: true,
  },
  {
    name: "change_attrs",
    descriptionRu: "Изменение атрибутов подчинённой учётной записи",
    descriptionEn: "Change the attributes of a subordinate account",
    subjectKinds: ["user"],
    objectKinds: ["user"],
    builtin: true,
  },
];

// Every grant checks its rights' definitions: held in process (one entry, all definitions), dropped
// through the change bus when a definition changes.
const DEFINITIONS_TOPIC = "right-definitions";
const definitionsCache = keyedCache<Map<string, TDefinitionRow>>(DEFINITIONS_TOPIC, { ttlMs: 10 * 60_000, maxEntries: 1 });

export function definitionsByName(): TMaybePromise<Map<string, TDefinitionRow>> {
  return definitionsCache.read("", async () => new Map((await findDefinitions()).map((d) => [d.name, d])));
}

function publishDefinitionsChange(): Promise<void> {
  return publishChange(DEFINITIONS_TOPIC);
}

/** Creates change_password and change_attrs when missing (at every start); stored ones are left alone. */
export async function ensureBuiltinRights(): Promise<number> {
  const created = await insertMissingDefinitions(BUILTIN_RIGHTS);
  if (created) await publishDefinitionsChange();
  return created;
}

function toDefinition(d: TDefinitionRow, grants: number): TRightDefinition {
  return {
    name: d.name,
    description: { ru: d.descriptionRu, en: d.descriptionEn },
    subjectKinds: d.subjectKinds as TSubjectKind[],
    objectKinds: d.objectKinds as TObjectKind[],
    builtin: d.builtin,
    grants,
  };
}

function toWrite(name: string, input: TRightDefinitionInput): TDefinitionWrite {
  return { name, descriptionRu: input.description.ru, descriptionEn: input.description.en, subjectKinds: input.subjectKinds, objectKinds: input.objectKinds };
}

const sameKinds = (a: string[], b: string[]) => a.length === b.length && a.every((k) => b.includes(k));

/** A built-in right keeps its kinds (user on user); its description may change. */
function assertBuiltinKeepsKinds(stored: TDefinitionRow | undefined, w: TDefinitionWrite): void {
  if (stored?.builtin && !(sameKinds(stored.subjectKinds, w.subjectKinds) && sameKinds(stored.objectKinds, w.objectKinds))) {
    throw new AppError("rights.builtin", { params: { right: w.name } });
  }
}

/** Every definition with its usage count, by name: for the console's definitions page. */
export async function listDefinitions(): Promise<TRightDefinition[]> {
  const defs = await findDefinitions();
  const counts = await countGrants(defs.map((d) => d.name));
  return defs.map((d) => toDefinition(d, counts.get(d.name) ?? 0));
}

/** GET /admin/api/v3/rights/{right_name}: the definition with its usage count. */
export async function readDefinition(name: string): Promise<TRightDefinition> {
  const [d] = await findDefinitions([name]);
  if (!d) throw new AppError("rights.definition_not_found", { params: { right: name } });
  return toDefinition(d, (await countGrants([name])).get(name) ?? 0);
}

/** `create`: the console's "New right" refuses a name already defined rather than replacing it; `note` adds to the event. */
export type TPutDefinitionOptions = { create?: boolean; note?: Record<string, unknown> };

/**
 * PUT /admin/api/v3/rights/{right_name}: creates or replaces the definition. Narrowing its kinds
 * leaves existing grants in place (they are the administrator's to revoke); new grants follow the
 * new kinds.
 */
export async function putDefinition(name: string, input: TRightDefinitionInput, actor: TEventActor, opts: TPutDefinitionOptions = {}): Promise<TRightDefinition> {
  const w = toWrite(name, input);
  const created = await inTransaction(async (tx) => {
    const [stored] = await findDefinitions([name], tx);
    if (stored && opts.create) throw new AppError("rights.definition_exists", { params: { right: name } });
    assertBuiltinKeepsKinds(stored, w);
    await upsertDefinition(stored?.builtin ? { ...w, builtin: true } : w, tx);
    return !stored;
  });
  await publishDefinitionsChange();
  await recordEvent(created ? "right.defined" : "right.definition_changed", actor, { right: name, subjectKinds: w.subjectKinds, objectKinds: w.objectKinds, ...opts.note });
  return readDefinition(name);
}

/**
 * DELETE /admin/api/v3/rights/{right_name}: refused (409 right_in_use) while the right is granted,
 * unless `force`: then every grant of it goes with it, in the same transaction.
 */
export async function removeDefinition(name: string, force: boolean, actor: TEventActor, note: Record<string, unknown> = {}): Promise<void> {
  const revoked = await inTransaction(async (tx) => {
    // Locked first, so a grant committing meanwhile is counted rather than silently cascaded away.
    const [stored] = (await lockDefinition(name, tx)) ? await findDefinitions([name], tx) : [];
    if (!stored) throw new AppError("rights.definition_not_found", { params: { right: name } });
    if (stored.builtin) throw new AppError("rights.builtin", { params: { right: name } });
    const grants = (await countGrants([name], tx)).get(name) ?? 0;
    if (grants && !force) throw new AppError("rights.definition_in_use", { params: { right: name, grants } });
    await deleteDefinition(name, tx);
    return grants;
  });
  await publishDefinitionsChange();
  if (revoked) await publishRightsChange();
  await recordEvent("right.definition_deleted", actor, { right: name, force, revokedGrants: revoked, ...note });
}

type TSectionSummary = { created: string[]; updated: string[]; unchanged: string[] };

/** The import document's `rights` section: each definition created or replaced; importing twice changes nothing. */
export async function applyRightsImport(defs: TRightDefinitionImport[], tx: TTx): Promise<TSectionSummary> {
  const summary: TSectionSummary = { created: [], updated: [], unchanged: [] };
  const stored = new Map((await findDefinitions(defs.map((d) => d.name), tx)).map((d) => [d.name, d]));
  for (const def of defs) {
    const w = toWrite(def.name, def);
    const s = stored.get(def.name);
    assertBuiltinKeepsKinds(s, w);
    if (s && s.descriptionRu === w.descriptionRu && s.descriptionEn === w.descriptionEn && sameKinds(s.subjectKinds, w.subjectKinds) && sameKinds(s.objectKinds, w.objectKinds)) {
      summary.unchanged.push(def.name);
      continue;
    }
    await upsertDefinition(s?.builtin ? { ...w, builtin: true } : w, tx);
    (s ? summary.updated : summary.created).push(def.name);
  }
  return summary;
}

/** After an import of definitions committed. */
export async function publishRightsImport(summary: TSectionSummary): Promise<void> {
  if (summary.created.length + summary.updated.length) await publishDefinitionsChange();
}
