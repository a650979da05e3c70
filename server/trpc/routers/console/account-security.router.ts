import { z } from "zod";
import {
  accountSecurityOf,
  changePropsFor,
  endUntouchableFor,
  setUntouchableFor,
  unlockFor,
} from "../../../account-state/account-security-console.service.ts";
import { consoleReadProcedure, createRouter, userManagerProcedure } from "../../init.ts";

const ZSub = z.string().min(1).max(256);
const ZUserRef = z.strictObject({ sub: ZSub });

/** An account's state, security question and properties in the console: adapters over the REST services' rules. */
export const accountSecurityRouter = createRouter({
  get: consoleReadProcedure.input(ZUserRef).query(({ input }) => accountSecurityOf(input.sub)),

  /** `till` absent: untouchable for ever. */
  setUntouchable: userManagerProcedure
    .input(z.strictObject({ sub: ZSub, till: z.number().int().min(0).max(253_402_300_799).optional() }))
    .mutation(({ input, ctx }) => setUntouchableFor(input.sub, input.till, ctx.actor)),

  endUntouchable: userManagerProcedure.input(ZUserRef).mutation(({ input, ctx }) => endUntouchableFor(input.sub, ctx.actor)),

  unlock: userManagerProcedure.input(ZUserRef).mutation(({ input, ctx }) => unlockFor(input.sub, ctx.actor)),

  /** Checked like POST …/props (limits, value types), so the items name the property as there. */
  changeProps: userManagerProcedure
    .input(z.strictObject({ sub: ZSub, add: z.unknown().optional(), remove: z.unknown().optional() }))
    .mutation(({ input, ctx }) => changePropsFor(input.sub, { add: input.add, remove: input.remove }, ctx.actor)),
});
