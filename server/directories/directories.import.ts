import { sealFor, unsealFor } from "../crypto/keys.ts";
import type { TTx } from "../db/index.ts";
import { AppError } from "../errors/app-error.ts";
import { sameJson } from "../import/canonical-json.ts";
import { findDirectory, upsertDirectory } from "./directories.repository.ts";
import { checkDirectorySettings, directoryRowOf, outdatesSyncMark } from "./directory-settings.ts";
import type { TDirectoryImport } from "./directory.schemas.ts";

type TSectionSummary = { created: string[]; updated: string[]; unchanged: string[] };

/** A refusal of the shared settings checks, moved to where it is in the document ("attributes.1.to" is "$.directories[0].attributes[1].to"). */
function atPos(pos: string, check: () => void): void {
  try {
    check();
  } catch (e) {
    const item = e instanceof AppError ? e.details.items?.[0] : undefined;
    if (!item) throw e;
    const at = `${pos}.${item.pos}`.replace(/\.(\d+)(?=\.|$)/g, "[$1]");
    throw new AppError("import.invalid_document", { items: [{ error: "wrong_value", desc: item.desc, pos: at }] });
  }
}

/** Checks every directory before the import's transaction, as the console checks one: its URL, its filters, its CA, its attribute rules. */
export function prepareDirectoryImport(entries: TDirectoryImport[]): TDirectoryImport[] {
  for (const [i, e] of entries.entries()) atPos(`$.directories[${i}]`, () => checkDirectorySettings(e, e.caCert ?? null));
  return entries;
}

/** Upserts the directories by id; the bind password is sealed, and a stored one that is the same counts as unchanged. */
export async function applyDirectoryImport(entries: TDirectoryImport[], tx: TTx): Promise<TSectionSummary> {
  const summary: TSectionSummary = { created: [], updated: [], unchanged: [] };
  for (const { id, bindPassword, caCert, ...settings } of entries) {
    const stored = await findDirectory(id, tx);
    const samePassword = stored !== null && unsealFor("directory-secrets", stored.bindPassword) === bindPassword;
    const row = directoryRowOf(id, settings, caCert ?? null, samePassword ? stored.bindPassword : sealFor("directory-secrets", bindPassword));
    if (stored && sameJson(row, stored)) {
      summary.unchanged.push(id);
      continue;
    }
    await upsertDirectory(row, stored !== null && outdatesSyncMark(stored, row), tx);
    (stored ? summary.updated : summary.created).push(id);
  }
  return summary;
}
