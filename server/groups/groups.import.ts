import { recordEvents, type TEventActor } from "../audit/audit.service.ts";
import type { TTx } from "../db/index.ts";
import { AppError } from "../errors/app-error.ts";
import { checkGroupAttrs } from "./group-attrs.ts";
import { publishAllGroupsChange, publishProfileChange } from "./groups-cache.ts";
import { deleteMembers, findGroupRow, findMemberIds, findProfiles, upsertProfile } from "./groups.repository.ts";
import type { TGroupAttrDef, TGroupAttrValue, TGroupImport, TGroupProfile, TGroupProfileImport } from "./groups.schemas.ts";
import { insertCheckedGroup, replaceCheckedAttrs } from "./groups.service.ts";
import { addMembersIn, memberEvents } from "./members.service.ts";

type TSectionSummary = { created: string[]; updated: string[]; unchanged: string[] };

// Stored JSON comes back in PostgreSQL's key order: compare through one fixed order.
const defKey = (d: TGroupAttrDef) => JSON.stringify([d.name, d.type, d.required, d.unique ?? false, d.maxLength ?? null]);
const profileKey = (p: TGroupProfile) => JSON.stringify([p.description.ru, p.description.en, p.attributes.map(defKey)]);
const attrsKey = (a: Record<string, TGroupAttrValue>) => JSON.stringify(Object.keys(a).sort().map((k) => [k, a[k]]));

/**
 * The `groupProfiles` section: each profile created or its description and schema replaced. Groups
 * already stored keep their attributes; the new schema applies to their next change.
 */
export async function applyGroupProfilesImport(profiles: TGroupProfileImport[], tx: TTx): Promise<TSectionSummary> {
  const summary: TSectionSummary = { created: [], updated: [], unchanged: [] };
  const stored = new Map((await findProfiles(profiles.map((p) => p.name), tx)).map((p) => [p.name, p]));
  for (const p of profiles) {
    const s = stored.get(p.name);
    if (s && profileKey(s) === profileKey(p)) {
      summary.unchanged.push(p.name);
      continue;
    }
    await upsertProfile(p, tx);
    (s ? summary.updated : summary.created).push(p.name);
  }
  return summary;
}

/** Problems of the i-th group, as the import reports them: the JSON path of each. */
function at(i: number, field: string) {
  return (e: unknown): never => {
    if (e instanceof AppError && (e.code === "request.invalid_values" || e.code === "group.unknown_user")) {
      const items = e.details.items ?? [{ error: "wrong_value", desc: e.details.desc ?? e.def.desc, pos: "", params: e.details.params }];
      throw new AppError("import.invalid_document", { items: items.map((it) => ({ ...it, pos: [`$.groups[${i}].${field}`, it.pos].filter(Boolean).join(".") })) });
    }
    throw e;
  };
}

const invalid = (pos: string, desc: string) => new AppError("import.invalid_document", { items: [{ error: "wrong_value", desc, pos }] });

/** Makes the membership exactly `members`; whether anything changed. */
async function syncMembers(g: { id: string; profile: string }, members: string[], i: number, by: TEventActor, tx: TTx): Promise<boolean> {
  const current = await findMemberIds(g.id, tx);
  const wanted = new Set(members);
  const gone = current.filter((u) => !wanted.has(u));
  const added = await addMembersIn(g, members, by, tx).catch(at(i, "members"));
  if (gone.length) {
    await deleteMembers(g.id, gone, tx);
    await recordEvents(memberEvents("group.member_removed", g, gone, by), tx);
  }
  return added.length + gone.length > 0;
}

/**
 * The `groups` section, after the profiles: each group created, or its attributes replaced when they
 * differ; `members`, when given, becomes the whole membership (accounts of the same document count).
 * Importing the same document again changes nothing.
 */
export async function applyGroupsImport(groups: TGroupImport[], by: TEventActor, tx: TTx): Promise<TSectionSummary> {
  const summary: TSectionSummary = { created: [], updated: [], unchanged: [] };
  const profiles = new Map((await findProfiles([...new Set(groups.map((g) => g.profile))], tx)).map((p) => [p.name, p]));
  for (const [i, g] of groups.entries()) {
    const profile = profiles.get(g.profile);
    if (!profile) throw invalid(`$.groups[${i}].profile`, `no group profile "${g.profile}"`);
    let attrs: Record<string, TGroupAttrValue> = {};
    try {
      attrs = checkGroupAttrs(profile.attributes, g.attributes);
    } catch (e) {
      at(i, "attributes")(e);
    }
    const stored = await findGroupRow(g.id, tx);
    if (stored && stored.profile !== g.profile) throw invalid(`$.groups[${i}].profile`, `group "${g.id}" exists in profile "${stored.profile}"`);
    let changed = false;
    if (!stored) await insertCheckedGroup(profile, g.id, attrs, tx).catch(at(i, "attributes"));
    else if (attrsKey(stored.attrs) !== attrsKey(attrs)) {
      await replaceCheckedAttrs(profile, g.id, attrs, tx).catch(at(i, "attributes"));
      changed = true;
    }
    if (g.members && (await syncMembers({ id: g.id, profile: g.profile }, g.members, i, by, tx))) changed = true;
    (!stored ? summary.created : changed ? summary.updated : summary.unchanged).push(g.id);
  }
  return summary;
}

/** After an import of profiles and groups committed. */
export async function publishGroupsImport(profiles: TSectionSummary, groups: TSectionSummary): Promise<void> {
  await publishProfileChange([...profiles.created, ...profiles.updated]);
  if (groups.created.length + groups.updated.length) await publishAllGroupsChange();
}
