import { z } from "zod";
import { ZPasskeyName } from "../../../passkeys/passkeys.schemas.ts";
import { dropOwnPassword, finishOwnPasskey, listOwnPasskeys, ownPasskeysOffered, ownPasswordState, removeOwnPasskey, renameOwnPasskey, startOwnPasskey } from "../../../portal/passkeys.service.ts";
import { createRouter, portalProcedure, sensitivePortalProcedure } from "../../init.ts";

const ZPasskeyId = z.string().min(1).max(1366);

/**
 * The person's own passkeys. Adding and removing one changes how the account is entered, so they
 * need a recent sign-in; renaming does not.
 */
export const passkeysPortalRouter = createRouter({
  list: portalProcedure.query(({ ctx }) => listOwnPasskeys(ctx.user.sub)),
  offered: portalProcedure.query(() => ownPasskeysOffered()),
  /** The options for navigator.credentials.create(), with a challenge this account answers once. */
  start: sensitivePortalProcedure.mutation(({ ctx }) => startOwnPasskey(ctx.user.sub)),
  /** The authenticator's answer, as @simplewebauthn/browser gives it; checked by the service. */
  finish: sensitivePortalProcedure
    .input(z.strictObject({ answer: z.unknown(), name: ZPasskeyName }))
    .mutation(({ ctx, input }) => finishOwnPasskey(ctx.user.sub, input, ctx.actor)),
  rename: portalProcedure.input(z.strictObject({ id: ZPasskeyId, name: ZPasskeyName })).mutation(({ ctx, input }) => renameOwnPasskey(ctx.user.sub, input.id, input.name, ctx.actor)),
  remove: sensitivePortalProcedure.input(z.strictObject({ id: ZPasskeyId })).mutation(({ ctx, input }) => removeOwnPasskey(ctx.user.sub, input.id, ctx.actor, ctx.portalSession?.idp?.sid)),
  password: portalProcedure.query(({ ctx }) => ownPasswordState(ctx.user.sub)),
  /** Gives the password up: a change of how the account is entered, so it needs a recent sign-in. */
  dropPassword: sensitivePortalProcedure.mutation(({ ctx }) => dropOwnPassword(ctx.user.sub, ctx.actor, ctx.portalSession?.idp?.sid)),
});
