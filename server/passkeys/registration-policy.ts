import type { AuthenticatorSelectionCriteria, VerifiedRegistrationResponse } from "@simplewebauthn/server";
import { decodeAttestationObject } from "@simplewebauthn/server/helpers";
import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import { AppError } from "../errors/app-error.ts";
import type { TStoredMetadata } from "./passkey-metadata.ts";
import type { TPasskeyPolicy } from "./passkey-policy.schemas.ts";
import type { TRegistrationAnswer } from "./passkeys.schemas.ts";

/*
 * What the passkey policy asks of a registration: in the options the browser gets, and of the
 * answer it sends back. Passkey sign-in (passkey-sign-in.service.ts) is not governed by it: a
 * passkey is a whole sign-in, so it always requires user verification there.
 */

// The formats whose certificate chain @simplewebauthn/server checks against the metadata statement's
// root certificates when the MetadataService has one for the AAGUID. "none", self attestation (packed
// without x5c), fido-u2f and apple are checked against no metadata, so they prove no model here.
const METADATA_CHECKED_FORMATS = new Set(["packed", "tpm", "android-key"]);

export function registrationSelection(policy: TPasskeyPolicy): AuthenticatorSelectionCriteria {
  return {
    residentKey: "required",
    userVerification: policy.userVerification,
    ...(policy.attachment === "any" ? {} : { authenticatorAttachment: policy.attachment }),
  };
}

async function refuse(actor: TEventActor, reason: string, code: "passkeys.attachment_refused" | "passkeys.attestation_refused"): Promise<never> {
  await recordEvent("passkey.failed", actor, { ceremony: "register", reason });
  throw new AppError(code);
}

/**
 * The attachment the answer says it has, held to the policy. The browser reports it and a client
 * can lie, so this keeps honest browsers to the policy and proves nothing; only direct attestation
 * of an allowed model (below) proves what the authenticator is. An answer that does not say passes.
 */
export async function checkAttachment(policy: TPasskeyPolicy, answer: TRegistrationAnswer, actor: TEventActor): Promise<void> {
  if (policy.attachment === "any" || answer.authenticatorAttachment === undefined || answer.authenticatorAttachment === policy.attachment) return;
  await refuse(actor, `attachment ${answer.authenticatorAttachment} where the policy allows ${policy.attachment}`, "passkeys.attachment_refused");
}

/**
 * With direct attestation, after the library verified the answer: the attestation must be of a
 * format the library checked against the uploaded metadata's roots (it did, since the AAGUID has an
 * entry loaded into its MetadataService), of a model on the allow-list, not reported compromised.
 */
export async function checkAttestation(policy: TPasskeyPolicy, metadata: TStoredMetadata | null, info: NonNullable<VerifiedRegistrationResponse["registrationInfo"]>, actor: TEventActor): Promise<void> {
  if (policy.attestation === "none") return;
  const x5c = decodeAttestationObject(info.attestationObject).get("attStmt").get("x5c");
  if (!METADATA_CHECKED_FORMATS.has(info.fmt) || !x5c?.length) await refuse(actor, `attestation ${info.fmt}${x5c?.length ? "" : " without a certificate"} where direct attestation is required`, "passkeys.attestation_refused");
  if (!policy.allowedAaguids.includes(info.aaguid)) await refuse(actor, `authenticator ${info.aaguid} is not on the allow-list`, "passkeys.attestation_refused");
  const entry = metadata?.entries.find((e) => e.aaguid === info.aaguid);
  if (!entry || entry.compromised) await refuse(actor, `authenticator ${info.aaguid} is ${entry ? "reported compromised" : "not in the uploaded metadata"}`, "passkeys.attestation_refused");
}
