import { adminNote, type TEventActor } from "../audit/audit.service.ts";
import { readAccount } from "../users/users.service.ts";
import type { TAcl } from "./acls.schemas.ts";
import { consentsOf, revokeConsentOf } from "./acls.service.ts";

// The console's view of a user's consents: the same rules as GET|DELETE …/acls.

export async function listUserConsents(sub: string): Promise<TAcl[]> {
  return consentsOf((await readAccount(sub)).id);
}

/** "Revoke": the consent goes, with the application's refresh tokens and the access tokens issued with them. */
export async function revokeUserConsent(sub: string, consentId: string, admin: TEventActor): Promise<void> {
  const account = await readAccount(sub);
  await revokeConsentOf(account.id, consentId, admin, adminNote(admin));
}
