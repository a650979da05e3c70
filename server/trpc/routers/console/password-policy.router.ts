import { adminNote } from "../../../audit/audit.service.ts";
import { changePasswordPolicy, getPasswordPolicy } from "../../../passwords/policy-store.ts";
import { ZPasswordPolicy } from "../../../passwords/policy.schemas.ts";
import { adminProcedure, consoleReadProcedure, createRouter } from "../../init.ts";

/** The password policy page: the policy in force, and saving a new one (validated by the import's schema). */
export const passwordPolicyRouter = createRouter({
  get: consoleReadProcedure.query(() => getPasswordPolicy()),

  save: adminProcedure.input(ZPasswordPolicy).mutation(({ input, ctx }) => changePasswordPolicy(input, ctx.actor, adminNote(ctx.actor))),
});
