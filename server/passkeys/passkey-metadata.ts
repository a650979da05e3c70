import { X509Certificate } from "node:crypto";
import { MetadataService, type MetadataStatement } from "@simplewebauthn/server";
import { verifyMDSBlob } from "@simplewebauthn/server/helpers";
import { z } from "zod";
import { AppError } from "../errors/app-error.ts";
import { ZAaguid } from "./passkey-policy.schemas.ts";

/*
 * The FIDO Metadata Service (MDS3) file an administrator uploads: the BLOB (a JWT signed under the
 * FIDO Alliance's root, checked by @simplewebauthn/server) or its JSON payload (taken on the
 * administrator's word: they chose to upload it). The service never fetches the MDS itself. Only
 * FIDO2 entries (with an AAGUID) are kept, and of them only what attestation checks and the
 * authenticator's name need: a real BLOB is megabytes of icons and UAF/U2F entries.
 */

/** The largest file taken: the MDS3 BLOB of 2026 is a few megabytes; a file far over that is not one. */
export const MAX_METADATA_CHARS = 16 * 1024 * 1024;
const MAX_ENTRIES = 10_000;

// Statuses after which the FIDO Alliance says an authenticator's keys or verification can't be trusted.
const COMPROMISED = new Set(["USER_VERIFICATION_BYPASS", "ATTESTATION_KEY_COMPROMISE", "USER_KEY_REMOTE_COMPROMISE", "USER_KEY_PHYSICAL_COMPROMISE", "REVOKED"]);

const ZStatement = z.looseObject({
  description: z.string().max(10_000),
  attestationTypes: z.array(z.string().max(64)).max(20),
  attestationRootCertificates: z.array(z.base64().max(20_000)).max(20),
  authenticationAlgorithms: z.array(z.string().max(64)).max(50),
  authenticatorGetInfo: z.looseObject({ algorithms: z.array(z.looseObject({ alg: z.number() })).max(50).optional() }).optional(),
});

const ZPayload = z.looseObject({
  no: z.number().int(),
  nextUpdate: z.string().max(32),
  entries: z
    .array(z.looseObject({ aaguid: z.unknown().optional(), metadataStatement: z.unknown().optional(), statusReports: z.array(z.looseObject({ status: z.string().max(64) })).max(200).default([]) }))
    .max(MAX_ENTRIES),
});

/** One kept entry: its AAGUID, a name fit to show (one line, bounded), whether it is compromised, and the statement for the library. */
export type TMetadataEntry = { aaguid: string; name: string; compromised: boolean; statement: MetadataStatement };
export type TStoredMetadata = { no: number; nextUpdate: string; signed: boolean; entries: TMetadataEntry[] };

const refuse = (desc: string): never => {
  throw new AppError("passkeys.metadata_invalid", { items: [{ error: "wrong_value", desc, pos: "file" }] });
};

/** A name fit for one line of a table: no control characters, at most 128 characters. It is text: the pages escape it. */
export function cleanName(raw: string): string {
  return raw.replace(/[\p{Cc}\p{Cf}]+/gu, " ").replace(/\s+/g, " ").trim().slice(0, 128);
}

async function payloadOf(text: string): Promise<unknown> {
  if (text.length > MAX_METADATA_CHARS) refuse(`the file is larger than ${MAX_METADATA_CHARS / 1024 / 1024} MB`);
  const trimmed = text.trim();
  if (trimmed.startsWith("{")) {
    try {
      return JSON.parse(trimmed);
    } catch {
      return refuse("the file is neither a metadata BLOB (a JWT) nor its JSON payload");
    }
  }
  if (!/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(trimmed)) refuse("the file is neither a metadata BLOB (a JWT) nor its JSON payload");
  try {
    return (await verifyMDSBlob(trimmed)).payload;
  } catch {
    // The library names the failed step; the administrator needs to know only that it is not the FIDO Alliance's.
    return refuse("the BLOB's signature does not verify under the FIDO Alliance's root certificate");
  }
}

function entryOf(raw: { aaguid?: unknown; metadataStatement?: unknown; statusReports: { status: string }[] }): TMetadataEntry | undefined {
  const aaguid = ZAaguid.safeParse(raw.aaguid);
  const statement = ZStatement.safeParse(raw.metadataStatement);
  if (!aaguid.success || !statement.success) return undefined;
  // Checked now rather than at someone's registration: a root that does not parse is a broken file.
  for (const der of statement.data.attestationRootCertificates) {
    try {
      new X509Certificate(Buffer.from(der, "base64"));
    } catch {
      refuse(`the root certificate of ${aaguid.data} does not parse`);
    }
  }
  const latest = raw.statusReports.at(-1)?.status;
  const s = statement.data;
  const kept = {
    aaguid: aaguid.data,
    description: s.description,
    attestationTypes: s.attestationTypes,
    attestationRootCertificates: s.attestationRootCertificates,
    authenticationAlgorithms: s.authenticationAlgorithms,
    ...(s.authenticatorGetInfo?.algorithms ? { authenticatorGetInfo: { algorithms: s.authenticatorGetInfo.algorithms } } : {}),
  };
  return { aaguid: aaguid.data, name: cleanName(s.description) || aaguid.data, compromised: latest !== undefined && COMPROMISED.has(latest), statement: kept as unknown as MetadataStatement };
}

/** Reads an uploaded file; refuses (metadata_invalid, a 400) what is not MDS3 metadata with at least one FIDO2 entry. */
export async function parseMetadataFile(text: string): Promise<TStoredMetadata> {
  const signed = !text.trim().startsWith("{");
  const parsed = ZPayload.safeParse(await payloadOf(text));
  if (!parsed.success) return refuse(`not FIDO metadata: ${parsed.error.issues[0]?.path.join(".") || "payload"} ${parsed.error.issues[0]?.message ?? ""}`.trim());
  const byAaguid = new Map<string, TMetadataEntry>();
  for (const raw of parsed.data.entries) {
    const entry = entryOf(raw);
    if (entry) byAaguid.set(entry.aaguid, entry);
  }
  if (byAaguid.size === 0) refuse("the metadata has no FIDO2 authenticator (no entry with an AAGUID and a metadata statement)");
  return { no: parsed.data.no, nextUpdate: parsed.data.nextUpdate, signed, entries: [...byAaguid.values()] };
}

// What the library's one MetadataService holds now; replaced as a whole when the stored metadata changes.
let loaded: TStoredMetadata | null | undefined;

/**
 * Puts the stored metadata into @simplewebauthn/server's MetadataService, which its attestation
 * checks consult, unless it holds that very metadata already. "permissive": an AAGUID without an
 * entry is not refused by the library; the policy decides (attestation "direct" wants one).
 */
export async function loadIntoMetadataService(metadata: TStoredMetadata | null): Promise<void> {
  if (loaded === metadata) return;
  await MetadataService.initialize({ mdsServers: [], statements: (metadata?.entries ?? []).filter((e) => !e.compromised).map((e) => e.statement), verificationMode: "permissive" });
  loaded = metadata;
}
