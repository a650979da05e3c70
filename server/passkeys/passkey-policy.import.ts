import { isDeepStrictEqual } from "node:util";
import type { TTx } from "../db/index.ts";
import { findPasskeyPolicyDocument } from "./passkey-policy.repository.ts";
import type { TPasskeyPolicy } from "./passkey-policy.schemas.ts";
import { storePasskeyPolicy } from "./passkey-policy.service.ts";

type TSectionSummary = { created: string[]; updated: string[]; unchanged: string[] };

/**
 * The import document's `passkeyPolicy` (validated, defaults filled in): replaces the stored policy
 * as a whole, so importing it twice changes nothing; the summary names the one policy "default".
 * The FIDO metadata is not part of the document (megabytes, uploaded in the console): with direct
 * attestation and no metadata uploaded yet, registrations are refused until it is.
 */
export async function applyPasskeyPolicyImport(policy: TPasskeyPolicy | undefined, tx: TTx): Promise<TSectionSummary> {
  const summary: TSectionSummary = { created: [], updated: [], unchanged: [] };
  if (policy === undefined) return summary;
  const stored = await findPasskeyPolicyDocument(tx);
  if (stored !== null && isDeepStrictEqual(stored, JSON.parse(JSON.stringify(policy)))) {
    summary.unchanged.push("default");
    return summary;
  }
  await storePasskeyPolicy(policy, tx);
  (stored === null ? summary.created : summary.updated).push("default");
  return summary;
}
