import { isDeepStrictEqual } from "node:util";
import type { TTx } from "../db/index.ts";
import { findPolicyDocument } from "./passwords.repository.ts";
import { storePasswordPolicy } from "./policy-store.ts";
import type { TPasswordPolicy } from "./policy.schemas.ts";

type TSectionSummary = { created: string[]; updated: string[]; unchanged: string[] };

/**
 * The import document's `passwordPolicy` (already validated, defaults filled in): replaces the stored
 * policy as a whole, so a document is the complete truth and importing it twice changes nothing.
 * The summary names the one policy "default".
 */
export async function applyPolicyImport(policy: TPasswordPolicy | undefined, tx: TTx): Promise<TSectionSummary> {
  const summary: TSectionSummary = { created: [], updated: [], unchanged: [] };
  if (policy === undefined) return summary;
  const stored = await findPolicyDocument(tx);
  if (stored !== null && isDeepStrictEqual(stored, JSON.parse(JSON.stringify(policy)))) {
    summary.unchanged.push("default");
    return summary;
  }
  await storePasswordPolicy(policy, tx);
  (stored === null ? summary.created : summary.updated).push("default");
  return summary;
}
