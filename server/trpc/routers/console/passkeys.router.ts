import { z } from "zod";
import { listNamedPasskeys, passkeysOffered, removeUserPasskey } from "../../../passkeys/passkeys.service.ts";
import { consoleReadProcedure, createRouter, userManagerProcedure } from "../../init.ts";

const ZSub = z.string().min(1).max(256);

/** A user's passkeys in the console: listed to every console role, removed by those who manage the account. */
export const passkeysConsoleRouter = createRouter({
  /** Whether people may add passkeys now: the console offers to invite someone to enrol one only then. */
  offered: consoleReadProcedure.query(() => passkeysOffered()),
  ofUser: consoleReadProcedure.input(z.strictObject({ sub: ZSub })).query(({ input }) => listNamedPasskeys(input.sub)),
  remove: userManagerProcedure
    .input(z.strictObject({ sub: ZSub, id: z.string().min(1).max(1366) }))
    .mutation(({ input, ctx }) => removeUserPasskey(input.sub, input.id, ctx.actor)),
});
