import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import { publishChange } from "../cache/change-bus.ts";
import { keyedCache } from "../cache/keyed-cache.ts";
import type { TMaybePromise } from "../cache/maybe-promise.ts";
import { AppError } from "../errors/app-error.ts";
import { findSelections, saveSelection } from "./attributes.repository.ts";
import { ATTRIBUTE_SCOPES, type TAttributeScope, type TAttributeSelection } from "./attributes.schemas.ts";
import { getCatalog } from "./attributes.service.ts";

/** A client's selections by scope; a scope without one selects every attribute. */
export type TSelections = ReadonlyMap<string, Set<string>>;

// Read on every attribute request, changed only in the console or by import: held per client in
// every process, dropped through the change bus.
const SELECTIONS_TOPIC = "attribute-selections";
const cache = keyedCache<TSelections>(SELECTIONS_TOPIC, { ttlMs: 10 * 60_000, maxEntries: 10_000 });

async function loadSelections(clientId: string): Promise<TSelections> {
  const rows = await findSelections(clientId);
  return new Map(rows.map((r) => [r.scope, new Set(r.attributes)]));
}

/** Every selection of a client, from memory without a Promise when cached (cache/maybe-promise.ts). */
export function clientSelections(clientId: string): TMaybePromise<TSelections> {
  return cache.read(clientId, loadSelections);
}

/** The attributes a client may use under a scope; null means every attribute of the catalog. */
export async function selectionFor(clientId: string, scope: TAttributeScope): Promise<Set<string> | null> {
  return (await clientSelections(clientId)).get(scope) ?? null;
}

/** After a selection change committed (no id: many clients): every process drops its copy. */
export function publishSelectionChange(clientId?: string): Promise<void> {
  return publishChange(SELECTIONS_TOPIC, clientId);
}

/** Every scope's selection of a client, for the console (null: all attributes). */
export async function getSelections(clientId: string): Promise<TAttributeSelection[]> {
  const rows = await loadSelections(clientId);
  return ATTRIBUTE_SCOPES.map((scope) => ({ scope, attributes: rows.has(scope) ? [...rows.get(scope)!] : null }));
}

export async function setSelection(clientId: string, selection: TAttributeSelection, actor: TEventActor): Promise<void> {
  const catalog = await getCatalog();
  const unknown = selection.attributes?.filter((a) => !catalog.byName.has(a)) ?? [];
  if (unknown.length) {
    throw new AppError("request.invalid_values", { items: unknown.map((a) => ({ error: "wrong_value", desc: `no attribute ${a} in the catalog`, pos: "attributes" })) });
  }
  await saveSelection(clientId, selection.scope, selection.attributes);
  await publishSelectionChange(clientId);
  await recordEvent("client.attribute_selection_changed", actor, { client: clientId, scope: selection.scope });
}
