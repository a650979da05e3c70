import type { TRequestContext } from "../../http/request-context.ts";
import { handleExternalLogin } from "../../sign-in/external-login.routes.ts";
import { completeBind } from "./bind-handler.ts";
import type { TExternalAuthPurpose, TExternalIdentity, TPendingExternalAuth } from "./external-auth.types.ts";

export type TExternalAuthHandler = (req: Request, ctx: TRequestContext, pending: TPendingExternalAuth, identity: TExternalIdentity) => Promise<Response>;

/** What the callback does with a confirmed external account, by what the flow was started for. */
export const EXTERNAL_AUTH_HANDLERS: Record<TExternalAuthPurpose, TExternalAuthHandler> = {
  bind: completeBind,
  login: handleExternalLogin,
};
