import { readFile } from "node:fs/promises";
import path from "node:path";
import type { TTx } from "../../db/index.ts";
import { BINDING } from "../metadata/idp-metadata.ts";
import { AppError } from "../../errors/app-error.ts";
import { certificatePem, isAllowedEndpoint, parseSpMetadata, type TSpMetadata } from "./sp-metadata.ts";
import { fetchSpMetadata } from "./sp-metadata-fetch.ts";
import { findSpByEntityId, findSpById, isOidcClientId, upsertSp, type TServiceProviderWrite } from "./service-providers.repository.ts";
import type { TSamlSpImport } from "./service-providers.schemas.ts";

type TSectionSummary = { created: string[]; updated: string[]; unchanged: string[] };

function refuse(pos: string, desc: string): never {
  throw new AppError("import.invalid_document", { items: [{ error: "wrong_value", desc, pos }] });
}

function pemAt(text: string, pos: string): string {
  try {
    return certificatePem(text);
  } catch (e) {
    const why = e instanceof AppError ? e.message.replace(/^.*: /, "") : "it cannot be read";
    return refuse(pos, `must be an RSA certificate (PEM or base64 DER) of at least 2048 bits: ${why}`);
  }
}

/** The metadata an entry gives (read from its file, or built from its hand-typed settings). */
async function metadataOf(e: TSamlSpImport, pos: string, baseDir: string): Promise<{ md: TSpMetadata; xml: string | null; url?: string }> {
  if (e.entityId !== undefined) {
    const acs = e.acsUrls!.map((location, index) => (isAllowedEndpoint(location) ? { index, location, isDefault: index === 0 } : refuse(`${pos}.acsUrls[${index}]`, "must be https (http only on loopback)")));
    const signingCerts = (e.signingCerts ?? []).map((c, i) => pemAt(c, `${pos}.signingCerts[${i}]`));
    const encryptionCert = e.encryptionCert === undefined ? undefined : pemAt(e.encryptionCert, `${pos}.encryptionCert`);
    const slo = e.singleLogoutUrl === undefined ? [] : [{ binding: BINDING.redirect, location: isAllowedEndpoint(e.singleLogoutUrl) ? e.singleLogoutUrl : refuse(`${pos}.singleLogoutUrl`, "must be https (http only on loopback)") }];
    return { md: { entityId: e.entityId, acs, slo, signingCerts, encryptionCert, assertionCipher: encryptionCert ? "aes256-gcm" : undefined, authnRequestsSigned: signingCerts.length > 0 }, xml: null };
  }
  let xml = e.metadataXml;
  if (e.metadataUrl !== undefined) {
    try {
      xml = await fetchSpMetadata(e.metadataUrl);
    } catch (err) {
      if (err instanceof AppError) refuse(`${pos}.metadataUrl`, err.message);
      throw err;
    }
  }
  if (xml === undefined) {
    const file = path.resolve(baseDir, e.metadataFile!);
    // A file the import document names, read at run time: not something for the build to trace.
    xml = await readFile(/*turbopackIgnore: true*/ file, "utf8").catch((err: NodeJS.ErrnoException) => refuse(`${pos}.metadataFile`, `cannot read ${file}: ${err.code ?? "error"}`));
  }
  try {
    return { md: parseSpMetadata(xml), xml, url: e.metadataUrl };
  } catch (err) {
    if (err instanceof AppError) refuse(`${pos}.${e.metadataFile ? "metadataFile" : e.metadataUrl ? "metadataUrl" : "metadataXml"}`, err.message);
    throw err;
  }
}

export type TPreparedSps = { write: TServiceProviderWrite; pos: string }[];

/** Reads and checks every provider before the import's transaction; any mistake refuses the document. */
export async function prepareSpImport(entries: TSamlSpImport[], baseDir = process.cwd()): Promise<TPreparedSps> {
  const out: TPreparedSps = [];
  const entityIds = new Set<string>();
  for (const [i, e] of entries.entries()) {
    const pos = `$.samlServiceProviders[${i}]`;
    const { md, xml, url } = await metadataOf(e, pos, baseDir);
    if (entityIds.has(md.entityId)) refuse(pos, `entity ID ${md.entityId} is given twice`);
    entityIds.add(md.entityId);
    if (e.requireSignedRequests && md.signingCerts.length === 0) refuse(pos, "signed requests are required, but no signing certificate is given (set requireSignedRequests to false to accept unsigned ones)");
    const encryption = e.assertionEncryption ?? md.assertionCipher ?? "off";
    if (encryption !== "off" && !md.encryptionCert) refuse(`${pos}.assertionEncryption`, "assertions cannot be encrypted: no encryption certificate is given");
    out.push({
      pos,
      write: {
        id: e.id,
        name: e.name,
        entityId: md.entityId,
        acs: md.acs,
        slo: md.slo,
        signingCerts: md.signingCerts,
        encryptionCert: md.encryptionCert ?? null,
        assertionEncryption: encryption,
        requireSignedRequests: e.requireSignedRequests,
        nameIdFormat: e.nameIdFormat ?? md.nameIdFormat ?? "persistent",
        allowIdpInitiated: e.allowIdpInitiated,
        defaultRelayState: e.defaultRelayState ?? null,
        attributeMap: e.attributes ?? [],
        metadataXml: xml,
        metadataUrl: url ?? null,
      },
    });
  }
  return out;
}

/** JSON with object keys sorted: a row read back from jsonb need not keep the order it was written in. */
const canonical = (v: unknown): string =>
  Array.isArray(v) ? `[${v.map(canonical).join(",")}]` : v && typeof v === "object" ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(",")}}` : JSON.stringify(v ?? null);

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
      if (name === newName && canonical(storedWrite) === canonical(newWrite)) {
        summary.unchanged.push(write.id);
        continue;
      }
    }
    await upsertSp(write, tx);
    (stored ? summary.updated : summary.created).push(write.id);
  }
  return summary;
}
