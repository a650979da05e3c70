import { z } from "zod";
import { describeSigningKeys, rotateSigningKey } from "../../../oauth/keys/signing-keys.service.ts";
import { adminProcedure, consoleReadProcedure, createRouter } from "../../init.ts";

/**
 * The signing keys page: what each key does now, and a rotation. The console is how the embedded
 * mode rotates without stopping (the command line cannot open a database a server holds).
 */
export const signingKeysRouter = createRouter({
  list: consoleReadProcedure.query(() => describeSigningKeys()),

  rotate: adminProcedure
    .input(z.strictObject({ compromised: z.boolean().default(false) }))
    .mutation(async ({ input, ctx }) => {
      // The event's subject is the administrator who rotated.
      const r = await rotateSigningKey({ compromised: input.compromised }, { ...ctx.actor, by: "console" });
      return { kid: r.kid, signsFrom: r.signsFrom, retired: r.retired };
    }),
});
