import type { Prisma } from "../db/generated/client.ts";
import { getPrisma, type TTx } from "../db/index.ts";

const POLICY_ID = "default";

/** The stored policy document, or null when none was ever saved (the default applies). */
export async function findPasskeyPolicyDocument(tx?: TTx): Promise<unknown> {
  const db = tx ?? (await getPrisma());
  return (await db.passkeyPolicy.findUnique({ where: { id: POLICY_ID }, select: { policy: true } }))?.policy ?? null;
}

export async function savePasskeyPolicyDocument(policy: Record<string, unknown>, tx?: TTx): Promise<void> {
  const db = tx ?? (await getPrisma());
  const doc = policy as Prisma.InputJsonObject;
  await db.passkeyPolicy.upsert({ where: { id: POLICY_ID }, create: { id: POLICY_ID, policy: doc }, update: { policy: doc }, select: { id: true } });
}

/** The stored metadata (as passkey-metadata.ts wrote it), or null when none was uploaded. */
export async function findPasskeyMetadata(): Promise<unknown> {
  const prisma = await getPrisma();
  return (await prisma.passkeyPolicy.findUnique({ where: { id: POLICY_ID }, select: { metadata: true } }))?.metadata ?? null;
}

/** Stores uploaded metadata; a policy row is made with `defaultPolicy` when there was none. */
export async function savePasskeyMetadata(metadata: Record<string, unknown>, defaultPolicy: Record<string, unknown>, at: Date): Promise<void> {
  const prisma = await getPrisma();
  const doc = metadata as Prisma.InputJsonObject;
  await prisma.passkeyPolicy.upsert({
    where: { id: POLICY_ID },
    create: { id: POLICY_ID, policy: defaultPolicy as Prisma.InputJsonObject, metadata: doc, metadataUpdatedAt: at },
    update: { metadata: doc, metadataUpdatedAt: at },
    select: { id: true },
  });
}

/** How many passkeys the account has: whether an administrator still has to enrol one. */
export async function countPasskeysOf(userId: string): Promise<number> {
  const prisma = await getPrisma();
  return prisma.passkey.count({ where: { userId } });
}
