import { ZProviderKey, ZSid } from "../../../federation/federation.schemas.ts";
import { listOwnLinkedAccounts, startOwnLink, unlinkOwnAccount } from "../../../portal/linked-accounts.service.ts";
import { createRouter, portalProcedure, sensitivePortalProcedure } from "../../init.ts";

/**
 * Linked external accounts. Linking adds a way into the account and unlinking takes one away that the
 * person may rely on, so both need a recent sign-in like the password does.
 */
export const linkedAccountsRouter = createRouter({
  list: portalProcedure.query(({ ctx }) => listOwnLinkedAccounts(ctx.user.sub)),
  link: sensitivePortalProcedure.input(ZProviderKey).mutation(({ ctx, input }) => startOwnLink(ctx.user.sub, input, ctx.actor)),
  unlink: sensitivePortalProcedure.input(ZProviderKey.extend({ sid: ZSid })).mutation(({ ctx, input }) => unlinkOwnAccount(ctx.user.sub, input, ctx.actor)),
});
