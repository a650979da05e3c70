import { recordEvent } from "../../audit/audit.service.ts";
import { AppError } from "../../errors/app-error.ts";
import { browserActor, type TRequestContext } from "../../http/request-context.ts";
import { bindExternalAccount } from "../bindings.service.ts";
import { providerLabel } from "../providers.service.ts";
import { errorOutcome, respondWithOutcome } from "./bind-outcome.ts";
import type { TExternalIdentity, TPendingExternalAuth } from "./external-auth.types.ts";
import { rememberExternalTokens } from "./remember-tokens.ts";
import type { TAnswer, TIncoming } from "../../http/exchange.ts";

const actorOf = (req: TIncoming, pending: TPendingExternalAuth) => ({ subject: pending.userId ?? undefined, clientId: pending.clientId ?? undefined, ...browserActor(req) });

/** A binding that did not happen: a security event, then the application hears why. */
export async function failBind(req: TIncoming, pending: TPendingExternalAuth, e: AppError, sid?: string): Promise<TAnswer> {
  await recordEvent("user.fa_bind_failed", actorOf(req, pending), {
    via: "redirect", provider: providerLabel(pending.provider), reason: e.def.error, ...(sid !== undefined ? { sid } : {}),
    ...(typeof e.details.params?.reason === "string" ? { detail: e.details.params.reason } : {}),
  });
  return respondWithOutcome(req, pending, errorOutcome(e));
}

/**
 * The provider confirmed the external account: binds it to the user who started the flow (409 when
 * another user holds it: nothing changes), remembers its tokens when the provider says so.
 */
export async function completeBind(req: TIncoming, ctx: TRequestContext, pending: TPendingExternalAuth, identity: TExternalIdentity): Promise<TAnswer> {
  if (!pending.userId) return failBind(req, pending, new AppError("federation.auth_request_not_found"), identity.sid);
  ctx.clientId = pending.clientId ?? undefined;
  try {
    await bindExternalAccount(pending.userId, { ...identity.provider, sid: identity.sid }, identity.userName, actorOf(req, pending), { via: "redirect" });
  } catch (e) {
    if (e instanceof AppError) return failBind(req, pending, e, identity.sid);
    throw e;
  }
  await rememberExternalTokens(pending.userId, identity);
  return respondWithOutcome(req, pending, { result: "bound", sid: identity.sid });
}
