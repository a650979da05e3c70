import { AppError } from "../../errors/app-error.ts";
import type { TRequestContext } from "../../http/request-context.ts";
import { completeBind } from "./bind-handler.ts";
import type { TExternalAuthPurpose, TExternalIdentity, TPendingExternalAuth } from "./external-auth.types.ts";

export type TExternalAuthHandler = (req: Request, ctx: TRequestContext, pending: TPendingExternalAuth, identity: TExternalIdentity) => Promise<Response>;

/** What the callback does with a confirmed external account, by what the flow was started for. */
export const EXTERNAL_AUTH_HANDLERS: Record<TExternalAuthPurpose, TExternalAuthHandler> = {
  bind: completeBind,
  login: async () => { throw new AppError("federation.login_unavailable"); },
};
