import { confirmContactCode, resendContactCode, startContactChange } from "../../../portal/contact.service.ts";
import { ZContactConfirm, ZContactResend, ZContactStart, ZProfileUpdate } from "../../../portal/portal.schemas.ts";
import { readProfile, updateProfile } from "../../../portal/profile.service.ts";
import { createRouter, portalProcedure, sensitivePortalProcedure } from "../../init.ts";

/** The profile page: the form of attributes, and e-mail or phone changed by code. */
export const profileRouter = createRouter({
  get: portalProcedure.query(({ ctx }) => readProfile(ctx.user.sub)),

  update: portalProcedure.input(ZProfileUpdate).mutation(({ ctx, input }) => updateProfile(ctx.user.sub, input, ctx.actor)),

  startContactChange: sensitivePortalProcedure.input(ZContactStart).mutation(({ ctx, input }) => startContactChange(ctx.user.sub, input, ctx.actor)),

  confirmContact: portalProcedure.input(ZContactConfirm).mutation(({ ctx, input }) => confirmContactCode(ctx.user.sub, input, ctx.actor)),

  resendCode: portalProcedure.input(ZContactResend).mutation(({ ctx, input }) => resendContactCode(ctx.user.sub, input, ctx.actor)),
});
