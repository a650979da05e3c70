import { AppError } from "../../../errors/app-error.ts";
import { removeSecurityQuestionOf, securityQuestionOf, setSecurityQuestionOf } from "../../../security-question/security-question.service.ts";
import { ZSetSecurityQuestion } from "../../../security-question/security-question.schemas.ts";
import { createRouter, portalProcedure, sensitivePortalProcedure } from "../../init.ts";

/** The signed-in person's security question: adapters over the rules of GET|POST|DELETE …/secQsn. */
export const securityQuestionRouter = createRouter({
  /** The question, or null when none is set (the answer never leaves the server). */
  get: portalProcedure.query(({ ctx }) =>
    securityQuestionOf(ctx.user.sub).then(
      (q) => q.question,
      (e: unknown) => {
        if (e instanceof AppError && e.code === "secqsn.not_set") return null;
        throw e;
      },
    ),
  ),
  set: sensitivePortalProcedure.input(ZSetSecurityQuestion).mutation(({ ctx, input }) => setSecurityQuestionOf(ctx.user.sub, input, ctx.actor)),
  remove: sensitivePortalProcedure.mutation(({ ctx }) => removeSecurityQuestionOf(ctx.user.sub, ctx.actor)),
});
