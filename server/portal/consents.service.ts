import type { TEventActor } from "../audit/audit.service.ts";
import { getClientForAuth } from "../clients/clients.service.ts";
import { consentsOf, revokeConsentOf } from "../consents/acls.service.ts";

export type TPortalConsent = { id: string; clientId: string; clientName: string; scopes: string[]; updated: number };

/** The applications the signed-in person allowed (GET …/acls), named as the consent page named them. */
export async function listOwnConsents(sub: string): Promise<TPortalConsent[]> {
  const acls = await consentsOf(sub);
  const out: TPortalConsent[] = [];
  // One after the other: the clients come from the in-process cache, and a removed client keeps its id as name.
  for (const a of acls) {
    const client = await getClientForAuth(a.client_id);
    out.push({ id: a.id, clientId: a.client_id, clientName: client?.name || a.client_id, scopes: a.scopes, updated: a.updated });
  }
  return out;
}

/**
 * "Revoke", as DELETE …/acls/{id}: the consent goes with the application's refresh tokens (and the
 * access tokens issued with them). Another account's consent id is consent.not_found.
 */
export async function revokeOwnConsent(sub: string, id: string, actor: TEventActor): Promise<void> {
  await revokeConsentOf(sub, id, actor);
}
