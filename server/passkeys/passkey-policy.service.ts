import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import { publishChange } from "../cache/change-bus.ts";
import { keyedCache } from "../cache/keyed-cache.ts";
import type { TMaybePromise } from "../cache/maybe-promise.ts";
import type { TTx } from "../db/index.ts";
import { AppError } from "../errors/app-error.ts";
import { log } from "../log/logger.ts";
import { parseMetadataFile, type TStoredMetadata } from "./passkey-metadata.ts";
import { countPasskeysOf, findPasskeyMetadata, findPasskeyPolicyDocument, savePasskeyMetadata, savePasskeyPolicyDocument } from "./passkey-policy.repository.ts";
import { DEFAULT_PASSKEY_POLICY, ZPasskeyPolicy, type TMetadataAuthenticator, type TPasskeyPolicy } from "./passkey-policy.schemas.ts";

/*
 * The passkey policy and the FIDO metadata uploaded for it. Read at every registration and, while
 * passkeys are required of administrators, on every console request, by every process: held in
 * process and dropped through the change bus, so a change applies everywhere without a restart.
 */

const TOPIC = "passkey-policy";
const policyCache = keyedCache<TPasskeyPolicy>(TOPIC, { ttlMs: 10 * 60_000, maxEntries: 1 });
const metadataCache = keyedCache<TStoredMetadata | null>(`${TOPIC}:metadata`, { ttlMs: 10 * 60_000, maxEntries: 1 });

async function loadPolicy(): Promise<TPasskeyPolicy> {
  const doc = await findPasskeyPolicyDocument();
  if (doc === null) return DEFAULT_PASSKEY_POLICY;
  const parsed = ZPasskeyPolicy.safeParse(doc);
  // Only validated documents are written; one an upgrade no longer accepts falls back to the default, loudly.
  if (!parsed.success) {
    log.warn("stored passkey policy is invalid; the default applies", { issues: parsed.error.issues.length });
    return DEFAULT_PASSKEY_POLICY;
  }
  return parsed.data;
}

/** The policy in force (the default until an administrator saves one). */
export function getPasskeyPolicy(): TMaybePromise<TPasskeyPolicy> {
  return policyCache.read("", loadPolicy);
}

/** The uploaded metadata, or null. */
export function getPasskeyMetadata(): TMaybePromise<TStoredMetadata | null> {
  return metadataCache.read("", async () => ((await findPasskeyMetadata()) as TStoredMetadata | null) ?? null);
}

/** The uploaded metadata's authenticators by name, for the administrator to pick from. */
export async function metadataAuthenticators(): Promise<{ uploaded: boolean; signed: boolean; authenticators: TMetadataAuthenticator[] }> {
  const metadata = await getPasskeyMetadata();
  const authenticators = (metadata?.entries ?? []).map((e) => ({ aaguid: e.aaguid, name: e.name, compromised: e.compromised }));
  return { uploaded: metadata !== null, signed: metadata?.signed ?? false, authenticators: authenticators.sort((a, b) => a.name.localeCompare(b.name)) };
}

function invalid(issues: { message: string; path: PropertyKey[] }[]): AppError {
  return new AppError("request.invalid_values", { items: issues.map((i) => ({ error: "wrong_value", desc: i.message, pos: i.path.map(String).join(".") || "passkeyPolicy" })) });
}

/** Validates `input` (absent fields take their defaults) and stores it, in `tx` when given. Publish after the commit. */
export async function storePasskeyPolicy(input: unknown, tx?: TTx): Promise<TPasskeyPolicy> {
  const parsed = ZPasskeyPolicy.safeParse(input);
  if (!parsed.success) throw invalid(parsed.error.issues);
  await savePasskeyPolicyDocument(parsed.data as Record<string, unknown>, tx);
  return parsed.data;
}

export function publishPasskeyPolicyChange(): Promise<void> {
  return Promise.all([publishChange(TOPIC), publishChange(`${TOPIC}:metadata`)]).then(() => undefined);
}

/**
 * The console's save. Two refusals keep the administrator who saves from locking themselves out:
 * requiring passkeys of administrators while they have none (they would be sent to enrol one the
 * next moment, and the policy might not let them), and direct attestation naming authenticators
 * the uploaded metadata does not have (no registration could pass).
 */
export async function changePasskeyPolicy(input: unknown, actor: TEventActor, note: Record<string, unknown> = {}): Promise<TPasskeyPolicy> {
  const parsed = ZPasskeyPolicy.safeParse(input);
  if (!parsed.success) throw invalid(parsed.error.issues);
  const policy = parsed.data;
  if (policy.requiredForAdmins && actor.subject && (await countPasskeysOf(actor.subject)) === 0) throw new AppError("passkeys.enrol_first");
  if (policy.attestation === "direct") {
    const known = new Set(((await getPasskeyMetadata())?.entries ?? []).map((e) => e.aaguid));
    const unknown = policy.allowedAaguids.filter((a) => !known.has(a));
    if (unknown.length) throw invalid([{ message: `not in the uploaded metadata: ${unknown.slice(0, 5).join(", ")}`, path: ["allowedAaguids"] }]);
  }
  await storePasskeyPolicy(policy);
  await publishPasskeyPolicyChange();
  await recordEvent("passkey.policy_changed", actor, { policy, ...note });
  return policy;
}

/** The console's upload of an MDS3 BLOB or its JSON payload: refused as a whole (400) unless it reads. */
export async function uploadPasskeyMetadata(text: string, actor: TEventActor, note: Record<string, unknown> = {}, now = new Date()) {
  const metadata = await parseMetadataFile(text);
  await savePasskeyMetadata(metadata as unknown as Record<string, unknown>, DEFAULT_PASSKEY_POLICY as Record<string, unknown>, now);
  await publishPasskeyPolicyChange();
  await recordEvent("passkey.metadata_uploaded", actor, { no: metadata.no, signed: metadata.signed, authenticators: metadata.entries.length, ...note });
  return metadataAuthenticators();
}

/** Whether this account, holding a console role, must enrol a passkey before the console opens. */
export async function passkeyEnrolmentRequired(userId: string): Promise<boolean> {
  return (await getPasskeyPolicy()).requiredForAdmins && (await countPasskeysOf(userId)) === 0;
}
