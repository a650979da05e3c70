import { readFile } from "node:fs/promises";
import { sameJson } from "../../import/canonical-json.ts";
import path from "node:path";
import type { TTx } from "../../db/index.ts";
import { AppError } from "../../errors/app-error.ts";
import { sourceOf, spWriteOf } from "./sp-settings.ts";
import { findSpByEntityId, findSpById, insertSp, isOidcClientId, updateSpRow, type TServiceProviderWrite } from "./service-providers.repository.ts";
import type { TSamlSpImport, TSamlSpSettings } from "./service-providers.schemas.ts";

type TSectionSummary = { created: string[]; updated: string[]; unchanged: string[] };

function refuse(pos: string, desc: string): never {
  throw new AppError("import.invalid_document", { items: [{ error: "wrong_value", desc, pos }] });
}

/** A refusal of the shared settings code, moved to where it is in the document. */
function atPos<T>(pos: string, run: () => Promise<T>): Promise<T> {
  return run().catch((e: unknown) => {
    const item = e instanceof AppError ? e.details.items?.[0] : undefined;
    if (!item) throw e;
    return refuse(`${pos}.${item.pos}`.replace(/\.(\d+)(?=\.|$)/g, "[$1]"), item.desc);
  });
}

/** The entry's metadata file, read relative to the document. */
async function withFileRead(e: TSamlSpImport, pos: string, baseDir: string): Promise<TSamlSpSettings> {
  const { id: _, name: __, metadataFile, ...settings } = e;
  if (metadataFile === undefined) return settings;
  const file = path.resolve(baseDir, metadataFile);
  // A file the import document names, read at run time: not something for the build to trace.
  const xml = await readFile(/*turbopackIgnore: true*/ file, "utf8").catch((err: NodeJS.ErrnoException) => refuse(`${pos}.metadataFile`, `cannot read ${file}: ${err.code ?? "error"}`));
  return { ...settings, metadataXml: xml };
}

export type TPreparedSps = { write: TServiceProviderWrite; pos: string }[];

/** Reads and checks every provider before the import's transaction; any mistake refuses the document. */
export async function prepareSpImport(entries: TSamlSpImport[], baseDir = process.cwd()): Promise<TPreparedSps> {
  const out: TPreparedSps = [];
  const entityIds = new Set<string>();
  for (const [i, e] of entries.entries()) {
    const pos = `$.samlServiceProviders[${i}]`;
    const settings = await withFileRead(e, pos, baseDir);
    const write = await atPos(pos, async () => spWriteOf(e.id, e.name, settings, await sourceOf(settings)));
    if (entityIds.has(write.entityId)) refuse(pos, `entity ID ${write.entityId} is given twice`);
    entityIds.add(write.entityId);
    out.push({ pos, write });
  }
  return out;
}

export async function applySpImport(prepared: TPreparedSps, tx: TTx): Promise<TSectionSummary> {
  const summary: TSectionSummary = { created: [], updated: [], unchanged: [] };
  for (const { write, pos } of prepared) {
    if (await isOidcClientId(write.id, tx)) refuse(`${pos}.id`, `${write.id} is the id of an OAuth application`);
    const holder = await findSpByEntityId(write.entityId, tx);
    if (holder && holder.id !== write.id) refuse(pos, `entity ID ${write.entityId} belongs to service provider ${holder.id}`);
    const stored = await findSpById(write.id, tx);
    if (stored) {
      const { enabled: _, name, ...storedWrite } = stored;
      const { name: newName, ...newWrite } = write;
      if (name === newName && sameJson(storedWrite, newWrite)) {
        summary.unchanged.push(write.id);
        continue;
      }
    }
    if (!(await updateSpRow(write, tx))) await insertSp(write, tx);
    (stored ? summary.updated : summary.created).push(write.id);
  }
  return summary;
}
