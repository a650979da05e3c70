import { getPrisma, type TTx } from "../db/index.ts";

// The one row of branding. The settings and the logo are written apart, each as a patch, so that
// saving the form does not undo a logo uploaded meanwhile, and the other way round.
const BRANDING_ID = "default";

export type TBrandingRow = {
  productName: string | null;
  accentColour: string | null;
  termsUrl: string | null;
  privacyUrl: string | null;
  logo: Uint8Array | null;
  logoType: string | null;
  logoVersion: string | null;
};

const SELECT = { productName: true, accentColour: true, termsUrl: true, privacyUrl: true, logo: true, logoType: true, logoVersion: true } as const;

export async function findBranding(tx?: TTx): Promise<TBrandingRow | null> {
  const db = tx ?? (await getPrisma());
  return db.branding.findUnique({ where: { id: BRANDING_ID }, select: SELECT });
}

/** Writes the columns `patch` names; the row is created on the first write. */
export async function patchBranding(patch: Partial<TBrandingRow>, tx?: TTx): Promise<void> {
  const db = tx ?? (await getPrisma());
  // Prisma's Bytes columns take a Uint8Array over an ArrayBuffer; ours are never shared ones.
  const data = { ...patch, logo: patch.logo as Uint8Array<ArrayBuffer> | null | undefined };
  await db.branding.upsert({ where: { id: BRANDING_ID }, create: { id: BRANDING_ID, ...data }, update: data, select: { id: true } });
}

/** Back to the built-in look. */
export async function deleteBranding(tx?: TTx): Promise<void> {
  const db = tx ?? (await getPrisma());
  await db.branding.deleteMany({ where: { id: BRANDING_ID } });
}
