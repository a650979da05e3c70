import { AppError } from "../errors/app-error.ts";
import { hashSecret, verifySecret } from "../crypto/password-hash.ts";
import type { TTx } from "../db/index.ts";
import { publishClientChange } from "./client-cache.ts";
import { findClientForAuth, insertClient, updateClientRow, type TClientAuthRow, type TClientWrite } from "./clients.repository.ts";
import { toClientWrite } from "./clients.mapper.ts";
import type { TClientInput } from "./clients.schemas.ts";

export type TClientImportResult = { created: string[]; updated: string[]; unchanged: string[] };
type TPrepared = { id: string; data: Required<Omit<TClientWrite, "enabled">>; existing: TClientAuthRow | null };

/** Keeps the stored hash when the document's secret still matches it, so a re-import is a no-op. */
async function hashUnlessSame(stored: string | null | undefined, plain: string | undefined): Promise<string | null> {
  if (plain === undefined) return null;
  if (stored && (await verifySecret(stored, plain))) return stored;
  return hashSecret(plain);
}

export async function prepareClientImport(inputs: TClientInput[]): Promise<TPrepared[]> {
  return Promise.all(
    inputs.map(async (c, i) => {
      const existing = await findClientForAuth(c.id);
      // The row of a SAML service provider is not an OAuth client: giving it a secret and grants would make one no list shows.
      if (existing?.protocol === "saml") throw new AppError("import.invalid_document", { items: [{ error: "wrong_value", desc: `${c.id} is a SAML service provider`, pos: `$.clients[${i}].id` }] });
      return {
        id: c.id,
        existing,
        data: {
          ...toClientWrite(c),
          secretHash: await hashUnlessSame(existing?.secretHash, c.secret),
          restPasswordHash: await hashUnlessSame(existing?.restPasswordHash, c.restPassword),
        },
      };
    }),
  );
}

const same = (a: unknown, b: unknown) =>
  Array.isArray(a) && Array.isArray(b) ? a.length === b.length && a.every((v, i) => v === b[i]) : a === b;

function isUnchanged(row: TClientAuthRow, d: TPrepared["data"]): boolean {
  return (Object.keys(d) as (keyof TPrepared["data"])[]).every((k) => same(row[k], d[k]));
}

/** Writes prepared clients; `enabled` is left as the console set it (an import never re-enables). */
export async function applyClientImport(prepared: TPrepared[], tx: TTx): Promise<TClientImportResult> {
  const result: TClientImportResult = { created: [], updated: [], unchanged: [] };
  for (const { id, data, existing } of prepared) {
    if (!existing) {
      await insertClient(id, data, tx);
      result.created.push(id);
    } else if (isUnchanged(existing, data)) {
      result.unchanged.push(id);
    } else {
      await updateClientRow(id, data, tx);
      result.updated.push(id);
    }
  }
  return result;
}

// Beyond this many, one "every client changed" is cheaper for all processes than a message each.
const MAX_SEPARATE_CHANGES = 100;

/** After the import committed: every process drops the clients it created or changed. */
export async function publishClientImport(result: TClientImportResult): Promise<void> {
  const changed = [...result.created, ...result.updated];
  if (changed.length > MAX_SEPARATE_CHANGES) return publishClientChange();
  for (const id of changed) await publishClientChange(id);
}
