import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import { AppError } from "../errors/app-error.ts";
import { eventActorOf, type TRequestContext } from "../http/request-context.ts";
import { revokeClientGrantsOf } from "../oauth/grants/refresh-tokens.service.ts";
import { accountOfSubject } from "../users/subject-param.ts";
import type { TAcl } from "./acls.schemas.ts";
import { deleteConsentOf, findConsentsOf } from "./consents.repository.ts";

// As in user-devices.service.ts: the rules take the account id and who acts, shared by the REST
// adapters below and the console (consents-console.service.ts).

/** The consents the user gave, latest first. */
export async function consentsOf(userId: string): Promise<TAcl[]> {
  const rows = await findConsentsOf(userId);
  return rows.map((c) => ({ id: c.id, updated: Math.floor(c.updatedAt.getTime() / 1000), client_id: c.clientId, scopes: c.scopes }));
}

/**
 * Revokes a consent of the user, and the refresh tokens the user gave that application with the
 * access tokens issued with them; the next sign-in asks again. consent.not_found when there is none.
 */
export async function revokeConsentOf(userId: string, id: string, actor: TEventActor, note: Record<string, unknown> = {}): Promise<void> {
  const clientId = await deleteConsentOf(userId, id);
  if (!clientId) throw new AppError("consent.not_found", { params: { id } });
  await revokeClientGrantsOf(userId, clientId);
  await recordEvent("user.consent_revoked", { ...actor, subject: userId }, { client: clientId, ...note });
}

/** GET /api/v3/users/{subjectId}/acls: the consents the user gave, latest first. */
export async function listAcls(ctx: TRequestContext, subjectId: string): Promise<TAcl[]> {
  return consentsOf((await accountOfSubject(ctx, subjectId)).id);
}

/** DELETE /api/v3/users/{subjectId}/acls/{id}: revokes the consent and the application's tokens. */
export async function deleteAcl(ctx: TRequestContext, subjectId: string, id: string): Promise<void> {
  const account = await accountOfSubject(ctx, subjectId);
  await revokeConsentOf(account.id, id, eventActorOf(ctx));
}
