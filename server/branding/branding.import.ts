import type { TTx } from "../db/index.ts";
import { findBranding, patchBranding, type TBrandingRow } from "./branding.repository.ts";
import type { TBrandingImport } from "./branding.schemas.ts";
import { logoVersion } from "./logo.ts";

type TSectionSummary = { created: string[]; updated: string[]; unchanged: string[] };

const SAME: (keyof TBrandingRow)[] = ["productName", "accentColour", "termsUrl", "privacyUrl", "logoType", "logoVersion"];

/**
 * The import document's `branding` (already validated, the logo checked by its bytes): replaces the
 * stored branding as a whole, so a part left out returns to the built-in look and importing the same
 * document twice changes nothing. The summary names the one branding "default". Publish the change
 * (publishBrandingChange) after the commit.
 */
export async function applyBrandingImport(doc: TBrandingImport | undefined, tx: TTx): Promise<TSectionSummary> {
  const summary: TSectionSummary = { created: [], updated: [], unchanged: [] };
  if (doc === undefined) return summary;
  const next: TBrandingRow = {
    productName: doc.productName ?? null,
    accentColour: doc.accentColour ?? null,
    termsUrl: doc.termsUrl ?? null,
    privacyUrl: doc.privacyUrl ?? null,
    logo: doc.logo?.bytes ?? null,
    logoType: doc.logo?.type ?? null,
    // The version names the bytes, so comparing it compares the logos.
    logoVersion: doc.logo ? logoVersion(doc.logo.bytes) : null,
  };
  const stored = await findBranding(tx);
  if (stored !== null && SAME.every((k) => stored[k] === next[k])) {
    summary.unchanged.push("default");
    return summary;
  }
  await patchBranding(next, tx);
  (stored === null ? summary.created : summary.updated).push("default");
  return summary;
}
