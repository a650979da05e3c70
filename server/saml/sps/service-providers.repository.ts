import { randomBytes } from "node:crypto";
import { getPrisma, type TTx } from "../../db/index.ts";
import type { Prisma } from "../../db/generated/client.ts";
import type { TAcs, TNameIdFormatName, TSlo } from "./sp-metadata.ts";
import type { TAssertionCipher } from "../xml/encryption.ts";

/** One attribute a provider is sent: from an account attribute of the catalog, the person's groups, or their rights on this application. */
export type TAttributeRule = { name: string; from: string; friendlyName?: string; nameFormat?: "basic" | "uri" | "unspecified" };

export type TServiceProvider = {
  id: string;
  name: string;
  enabled: boolean;
  entityId: string;
  acs: TAcs[];
  slo: TSlo[];
  signingCerts: string[];
  encryptionCert: string | null;
  /** Assertions are encrypted to encryptionCert with this cipher, or not ("off"). */
  assertionEncryption: TAssertionCipher | "off";
  requireSignedRequests: boolean;
  nameIdFormat: TNameIdFormatName;
  allowIdpInitiated: boolean;
  /** The person allows what it is sent on a consent page before its first sign-in (and again when that grows). */
  askConsent: boolean;
  defaultRelayState: string | null;
  attributeMap: TAttributeRule[];
  metadataXml: string | null;
  /** Where the metadata was fetched from, when it was. */
  metadataUrl: string | null;
};

export type TServiceProviderWrite = Omit<TServiceProvider, "enabled">;

const SELECT = {
  id: true,
  entityId: true,
  acs: true,
  slo: true,
  signingCerts: true,
  encryptionCert: true,
  assertionEncryption: true,
  requireSignedRequests: true,
  nameIdFormat: true,
  allowIdpInitiated: true,
  defaultRelayState: true,
  attributeMap: true,
  metadataXml: true,
  metadataUrl: true,
  client: { select: { name: true, enabled: true, firstParty: true } },
} as const;

type TRow = Prisma.SamlServiceProviderGetPayload<{ select: typeof SELECT }>;
// The provider's row in clients holds its name, whether it is on, and (as for any application) whether it asks consent: firstParty is "it does not".
const toView = ({ client, ...r }: TRow): TServiceProvider => ({ ...r, name: client.name, enabled: client.enabled, askConsent: !client.firstParty, acs: r.acs as TAcs[], slo: r.slo as TSlo[], nameIdFormat: r.nameIdFormat as TNameIdFormatName, assertionEncryption: r.assertionEncryption as TAssertionCipher | "off", attributeMap: r.attributeMap as TAttributeRule[] });

export async function findSpByEntityId(entityId: string, tx?: TTx): Promise<TServiceProvider | null> {
  const db = tx ?? (await getPrisma());
  const row = await db.samlServiceProvider.findUnique({ where: { entityId }, select: SELECT });
  return row && toView(row);
}

export async function findSpById(id: string, tx?: TTx): Promise<TServiceProvider | null> {
  const db = tx ?? (await getPrisma());
  const row = await db.samlServiceProvider.findUnique({ where: { id }, select: SELECT });
  return row && toView(row);
}

/** Whether `id` is taken by an OAuth client (a service provider may not take over an application's row). */
export async function isOidcClientId(id: string, tx: TTx): Promise<boolean> {
  return (await tx.client.count({ where: { id, protocol: { not: "saml" } } })) > 0;
}

const spData = ({ id: _, name: __, askConsent: ___, ...rest }: TServiceProviderWrite) => ({
  ...rest,
  acs: rest.acs as Prisma.InputJsonArray,
  slo: rest.slo as Prisma.InputJsonArray,
  attributeMap: rest.attributeMap as Prisma.InputJsonArray,
});

/**
 * Creates a service provider and the `clients` row that stands for it in sign-in flows, consents and
 * events. That row is written here, beside the provider it belongs to: it carries no secret, grant
 * types or redirect URIs, so no OAuth endpoint can use it. A taken id or entity ID is a unique
 * violation (never an update of someone else's row), which the caller turns into its 409.
 */
export async function insertSp(sp: TServiceProviderWrite, tx: TTx): Promise<void> {
  await tx.client.create({ data: { id: sp.id, name: sp.name, protocol: "saml", type: "confidential", firstParty: !sp.askConsent, grantTypes: [], createdAt: new Date() }, select: { id: true } });
  await tx.samlServiceProvider.create({ data: { id: sp.id, ...spData(sp) }, select: { id: true } });
}

/** Updates a service provider and its `clients` row; false when there is no provider of that id (an OAuth client's row is never touched). */
export async function updateSpRow(sp: TServiceProviderWrite, tx: TTx): Promise<boolean> {
  const { count } = await tx.client.updateMany({ where: { id: sp.id, protocol: "saml" }, data: { name: sp.name, firstParty: !sp.askConsent } });
  if (count !== 1) return false;
  await tx.samlServiceProvider.update({ where: { id: sp.id }, data: spData(sp), select: { id: true } });
  return true;
}

/** Records a request ID; false when the provider used it before (a replay). */
export async function rememberRequestId(spId: string, requestId: string, expiresAt: Date): Promise<boolean> {
  const prisma = await getPrisma();
  const { count } = await prisma.samlRequestId.createMany({ data: [{ spId, requestId, expiresAt }], skipDuplicates: true });
  return count === 1;
}

export async function savePendingRequest(handleHash: string, request: Prisma.InputJsonObject, expiresAt: Date): Promise<void> {
  const prisma = await getPrisma();
  await prisma.samlPendingRequest.create({ data: { handleHash, request, expiresAt }, select: { handleHash: true } });
}

/** Takes a pending request once: the row is deleted as it is read, so a second GET finds nothing. */
export async function takePendingRequest(handleHash: string, now: Date): Promise<unknown> {
  const prisma = await getPrisma();
  const rows = await prisma.$queryRaw<{ request: unknown }[]>`DELETE FROM saml_pending_requests WHERE handle_hash = ${handleHash} AND expires_at > ${now} RETURNING request`;
  return rows[0]?.request;
}

/** The account's persistent NameID at the provider: made once (random), then always the same. */
export async function persistentIdOf(spId: string, userId: string): Promise<string> {
  const prisma = await getPrisma();
  const found = await prisma.samlPersistentId.findUnique({ where: { spId_userId: { spId, userId } }, select: { value: true } });
  if (found) return found.value;
  await prisma.samlPersistentId.createMany({ data: [{ spId, userId, value: randomBytes(20).toString("base64url") }], skipDuplicates: true });
  // Another request may have made it meanwhile: the stored one is the one.
  return (await prisma.samlPersistentId.findUniqueOrThrow({ where: { spId_userId: { spId, userId } }, select: { value: true } })).value;
}

/** Drops request IDs and pending requests that can no longer be used. */
export async function deleteExpiredSamlRows(now: Date): Promise<number> {
  const prisma = await getPrisma();
  const a = await prisma.samlRequestId.deleteMany({ where: { expiresAt: { lt: now } } });
  const b = await prisma.samlPendingRequest.deleteMany({ where: { expiresAt: { lt: now } } });
  return a.count + b.count;
}

/** Every provider, by id, for the console's list. */
export async function findAllSps(): Promise<TServiceProvider[]> {
  const prisma = await getPrisma();
  return (await prisma.samlServiceProvider.findMany({ orderBy: { id: "asc" }, select: SELECT })).map(toView);
}

/** Whether any row of clients (an OAuth client or a provider) has this id. */
export async function isClientIdTaken(id: string, tx: TTx): Promise<boolean> {
  return (await tx.client.count({ where: { id } })) > 0;
}

/** Removes a provider with its row in clients; the database takes its sessions' records, NameIDs and request IDs with it. */
export async function deleteSpRow(id: string): Promise<boolean> {
  const prisma = await getPrisma();
  return (await prisma.client.deleteMany({ where: { id, protocol: "saml" } })).count === 1;
}
