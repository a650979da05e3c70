import { z } from "zod";
import { MAX_DEVICE_FILE_BYTES } from "../../../otp/device-files.ts";
import { changeUserAuthModes, listDevicePage, readUserOtpState, removeUserGenerator, resetUserSecondFactor, uploadDeviceFile } from "../../../otp/otp-console.service.ts";
import { adminProcedure, consoleReadProcedure, createRouter, userManagerProcedure } from "../../init.ts";

const ZSub = z.string().min(1).max(256);

/** One-time passwords in the console: device files, and a user's generators and authentication modes. */
export const otpRouter = createRouter({
  devices: consoleReadProcedure
    .input(z.strictObject({ search: z.string().max(64).optional(), page: z.number().int().min(0).max(100_000).default(0) }))
    .query(({ input }) => listDevicePage(input.search, input.page)),

  loadDevices: adminProcedure
    .input(z.strictObject({ format: z.enum(["pskc", "csv"]), content: z.string().min(1, "choose a file").max(MAX_DEVICE_FILE_BYTES) }))
    .mutation(({ input, ctx }) => uploadDeviceFile(input.format, input.content, ctx.actor)),

  userState: consoleReadProcedure.input(z.strictObject({ sub: ZSub })).query(({ input }) => readUserOtpState(input.sub)),

  removeGenerator: userManagerProcedure
    .input(z.strictObject({ sub: ZSub, id: z.string().min(1).max(400) }))
    .mutation(({ input, ctx }) => removeUserGenerator(input.sub, input.id, ctx.actor)),

  /** The reason is the administrator's words for the event (a ticket, "lost phone"); the person is not shown it. */
  resetSecondFactor: userManagerProcedure
    .input(z.strictObject({ sub: ZSub, reason: z.string().trim().min(1, "say why").max(200).regex(/^[^\p{Cc}]*$/u, "no control characters") }))
    .mutation(({ input, ctx }) => resetUserSecondFactor(input.sub, input.reason, ctx.actor)),

  setAuthModes: userManagerProcedure
    .input(
      z.strictObject({
        sub: ZSub,
        requiredFactor: z.union([z.literal(2), z.null()]).optional(),
        needPasswordChange: z.literal(true).optional(),
        methodsLocked: z.array(z.literal("password")).max(1).optional(),
      }),
    )
    .mutation(({ input: { sub, ...change }, ctx }) => changeUserAuthModes(sub, change, ctx.actor)),
});
