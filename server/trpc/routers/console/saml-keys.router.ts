import { z } from "zod";
import { describeSamlKeys, rotateSamlSigningKey } from "../../../saml/keys/saml-keys.service.ts";
import { adminProcedure, consoleReadProcedure, createRouter } from "../../init.ts";

/** The SAML signing keys: their certificates and what each does now, and a rotation of their own. */
export const samlKeysRouter = createRouter({
  list: consoleReadProcedure.query(() => describeSamlKeys()),

  rotate: adminProcedure
    .input(z.strictObject({ compromised: z.boolean().default(false) }))
    .mutation(async ({ input, ctx }) => {
      const r = await rotateSamlSigningKey({ compromised: input.compromised }, { ...ctx.actor, by: "console" });
      return { kid: r.kid, signsFrom: r.signsFrom, retired: r.retired };
    }),
});
