import { z } from "zod";
import { createSp, deleteSp, getSpSettings, idpSettings, listSps, updateSp } from "../../../saml/sps/saml-console.service.ts";
import { ZSamlSpCreate } from "../../../saml/sps/service-providers.schemas.ts";
import { adminProcedure, consoleReadProcedure, createRouter } from "../../init.ts";

/** SAML applications in the console: adapters over the SAML service providers' console service. */
export const samlSpsRouter = createRouter({
  list: consoleReadProcedure.query(() => listSps()),

  /** What to give a service provider: our entity ID, metadata and endpoints. */
  idp: consoleReadProcedure.query(() => idpSettings()),

  /** One provider's settings, to edit. */
  get: consoleReadProcedure.input(z.strictObject({ id: z.string().min(1).max(64) })).query(({ input }) => getSpSettings(input.id)),

  create: adminProcedure.input(ZSamlSpCreate).mutation(({ input, ctx }) => createSp(input, ctx.actor)),

  /** Saves every setting at once; a metadata URL is fetched again. */
  update: adminProcedure.input(ZSamlSpCreate).mutation(({ input, ctx }) => updateSp(input, ctx.actor)),

  delete: adminProcedure.input(z.strictObject({ id: z.string().min(1).max(64) })).mutation(({ input, ctx }) => deleteSp(input.id, ctx.actor)),
});
