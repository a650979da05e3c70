import { z } from "zod";
import { finishOwnTotp, readOwnOtpState, removeOwnGenerator, renewOwnBackupCodes, setOwnSecondFactor, startOwnTotp } from "../../../portal/otp.service.ts";
import { createRouter, portalProcedure, sensitivePortalProcedure } from "../../init.ts";

/** The person's own one-time-password generators and second factor: adapters over the QR flow, …/totps and …/auth. */
export const otpPortalRouter = createRouter({
  state: portalProcedure.query(({ ctx }) => readOwnOtpState(ctx.user.sub)),
  start: sensitivePortalProcedure.mutation(({ ctx }) => startOwnTotp(ctx.user.sub)),
  finish: sensitivePortalProcedure
    .input(z.strictObject({ base32Secret: z.string().min(1).max(256), otpCode: z.string().trim().min(1, "enter the code").max(32), name: z.string().max(64).optional(), turnOn: z.boolean().optional() }))
    .mutation(({ ctx, input }) => finishOwnTotp(ctx.user.sub, input, ctx.actor)),
  remove: sensitivePortalProcedure.input(z.strictObject({ id: z.string().min(1).max(400) })).mutation(({ ctx, input }) => removeOwnGenerator(ctx.user.sub, input.id, ctx.actor)),
  setSecondFactor: sensitivePortalProcedure.input(z.strictObject({ on: z.boolean() })).mutation(({ ctx, input }) => setOwnSecondFactor(ctx.user.sub, input.on, ctx.actor)),
  /** The codes in the clear, this once: the page shows them and offers them as a file. */
  renewBackupCodes: sensitivePortalProcedure.mutation(({ ctx }) => renewOwnBackupCodes(ctx.user.sub, ctx.actor)),
});
