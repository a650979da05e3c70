import { recordEvent } from "../audit/audit.service.ts";
import { AppError } from "../errors/app-error.ts";
import { eventActorOf, type TRequestContext } from "../http/request-context.ts";
import { revokeClientGrantsOf } from "../oauth/grants/refresh-tokens.service.ts";
import { accountOfSubject } from "../users/subject-param.ts";
import type { TAcl } from "./acls.schemas.ts";
import { deleteConsentOf, findConsentsOf } from "./consents.repository.ts";

/** GET /api/v3/users/{subjectId}/acls: the consents the user gave, latest first. */
export async function listAcls(ctx: TRequestContext, subjectId: string): Promise<TAcl[]> {
  const account = await accountOfSubject(ctx, subjectId);
  const rows = await findConsentsOf(account.id);
  return rows.map((c) => ({ id: c.id, updated: Math.floor(c.updatedAt.getTime() / 1000), client_id: c.clientId, scopes: c.scopes }));
}

/**
 * DELETE /api/v3/users/{subjectId}/acls/{id}: revokes the consent, and the refresh tokens the user
 * gave that application with the access tokens issued with them; the next sign-in asks again.
 */
export async function deleteAcl(ctx: TRequestContext, subjectId: string, id: string): Promise<void> {
  const account = await accountOfSubject(ctx, subjectId);
  const clientId = await deleteConsentOf(account.id, id);
  if (!clientId) throw new AppError("consent.not_found", { params: { id } });
  await revokeClientGrantsOf(account.id, clientId);
  await recordEvent("user.consent_revoked", { ...eventActorOf(ctx), subject: account.id }, { client: clientId });
}
