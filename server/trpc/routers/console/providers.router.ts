import { z } from "zod";
import {
  createProvider,
  deleteProvider,
  testDiscovery,
  unbindUserAccount,
  updateProvider,
  userBindings,
} from "../../../federation/federation-console.service.ts";
import { ZFpName, ZFpType, ZProviderInput, ZProviderKey, ZSid } from "../../../federation/federation.schemas.ts";
import { listProviders } from "../../../federation/providers.service.ts";
import { adminProcedure, consoleReadProcedure, createRouter, userManagerProcedure } from "../../init.ts";

const ZSub = z.string().min(1).max(256);

/** External identity providers in the console, and a user's bound external accounts: adapters over the federation services. */
export const providersRouter = createRouter({
  list: consoleReadProcedure.query(() => listProviders()),

  /** clientSecret is write-only: sent only when the administrator sets a new one. */
  create: adminProcedure.input(ZProviderInput).mutation(({ input, ctx }) => createProvider(input, ctx.actor)),

  update: adminProcedure.input(ZProviderInput).mutation(({ input, ctx }) => updateProvider(input, ctx.actor)),

  delete: adminProcedure
    .input(ZProviderKey.extend({ force: z.boolean().default(false) }))
    .mutation(({ input: { force, ...key }, ctx }) => deleteProvider(key, force, ctx.actor)),

  testDiscovery: adminProcedure
    .input(z.strictObject({ discoveryUrl: z.string().min(1).max(2048), issuer: z.string().max(2048).optional() }))
    .mutation(({ input }) => testDiscovery(input.discoveryUrl, input.issuer || undefined)),

  userBindings: consoleReadProcedure.input(z.strictObject({ sub: ZSub })).query(({ input }) => userBindings(input.sub)),

  unbind: userManagerProcedure
    .input(z.strictObject({ sub: ZSub, fpType: ZFpType, fpName: ZFpName, sid: ZSid }))
    .mutation(({ input: { sub, ...key }, ctx }) => unbindUserAccount(sub, key, ctx.actor)),
});
