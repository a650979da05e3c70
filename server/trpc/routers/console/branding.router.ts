import { adminNote } from "../../../audit/audit.service.ts";
import { ZBrandingSettings, ZLogoUpload } from "../../../branding/branding.schemas.ts";
import { getBranding, removeLogo, resetBranding, saveBrandingSettings, saveLogo } from "../../../branding/branding.service.ts";
import { adminProcedure, consoleReadProcedure, createRouter } from "../../init.ts";

/** The branding page: the look of the sign-in pages, its logo (base64: at most 40 KB), and a way back to the built-in look. */
export const brandingRouter = createRouter({
  get: consoleReadProcedure.query(() => getBranding()),

  save: adminProcedure.input(ZBrandingSettings).mutation(({ input, ctx }) => saveBrandingSettings(input, ctx.actor, adminNote(ctx.actor))),

  uploadLogo: adminProcedure.input(ZLogoUpload).mutation(({ input, ctx }) => saveLogo(input, ctx.actor, adminNote(ctx.actor))),

  removeLogo: adminProcedure.mutation(({ ctx }) => removeLogo(ctx.actor, adminNote(ctx.actor))),

  reset: adminProcedure.mutation(({ ctx }) => resetBranding(ctx.actor, adminNote(ctx.actor))),
});
