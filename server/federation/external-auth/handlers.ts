import type { AppError } from "../../errors/app-error.ts";
import type { TRequestContext } from "../../http/request-context.ts";
import { failExternalLogin, handleExternalLogin } from "../../sign-in/external-login-callback.ts";
import { completeBind, failBind } from "./bind-handler.ts";
import type { TExternalAuthPurpose, TExternalIdentity, TPendingExternalAuth } from "./external-auth.types.ts";
import type { TAnswer, TIncoming } from "../../http/exchange.ts";

export type TExternalAuthHandler = {
  /** What the callback does with a confirmed external account. */
  complete(req: TIncoming, ctx: TRequestContext, pending: TPendingExternalAuth, identity: TExternalIdentity): Promise<TAnswer>;
  /** The provider did not confirm one: a response of the flow that started it, or the error thrown on to the callback's page. */
  fail(req: TIncoming, pending: TPendingExternalAuth, e: AppError): Promise<TAnswer>;
};

/** What the callback does, by what the flow was started for. */
export const EXTERNAL_AUTH_HANDLERS: Record<TExternalAuthPurpose, TExternalAuthHandler> = {
  // A binding started by an application ends there, with the failure; one started in the portal shows it.
  bind: { complete: completeBind, fail: (req, pending, e) => (pending.returnTo ? failBind(req, pending, e) : Promise.reject(e)) },
  login: { complete: handleExternalLogin, fail: failExternalLogin },
};
