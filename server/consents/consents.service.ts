import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import { findConsentScopes, upsertConsent } from "./consents.repository.ts";

/** True when the user allowed this client every one of `scopes` before. */
export async function hasConsent(userId: string, clientId: string, scopes: string[]): Promise<boolean> {
  const granted = await findConsentScopes(userId, clientId);
  return granted !== null && scopes.every((s) => granted.includes(s));
}

export async function grantConsent(userId: string, clientId: string, scopes: string[], actor: TEventActor): Promise<void> {
  await upsertConsent(userId, clientId, scopes);
  await recordEvent("user.consent_granted", { ...actor, subject: userId, clientId }, { scopes });
}

export async function recordConsentDenied(userId: string, clientId: string, scopes: string[], actor: TEventActor): Promise<void> {
  await recordEvent("user.consent_denied", { ...actor, subject: userId, clientId }, { scopes });
}
