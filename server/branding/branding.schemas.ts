import { z } from "zod";
import { providerUrlProblem } from "../federation/provider-urls.ts";
import { ACCENT_PATTERN, LOGO_MAX_BYTES, LOGO_TYPES, PRODUCT_NAME_MAX } from "./branding.shared.ts";
import { logoProblem } from "./logo.ts";

/**
 * A terms or privacy link: https, or http on a loopback address (a test or a trial run). Nothing
 * else: a `javascript:` or `data:` link on the sign-in page would run in the service's own origin.
 */
const ZPageLinkUrl = z
  .string()
  .trim()
  .max(2000)
  .superRefine((value, ctx) => {
    const problem = providerUrlProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

/** What the console's form saves; null keeps the built-in look for that part. */
export const ZBrandingSettings = z.strictObject({
  productName: z.string().trim().min(1).max(PRODUCT_NAME_MAX).nullable(),
  accentColour: z
    .string()
    .regex(ACCENT_PATTERN, "a colour is written #rrggbb")
    .transform((c) => c.toLowerCase())
    .nullable(),
  termsUrl: ZPageLinkUrl.nullable(),
  privacyUrl: ZPageLinkUrl.nullable(),
});
export type TBrandingSettings = z.infer<typeof ZBrandingSettings>;

// Base64 of LOGO_MAX_BYTES, rounded up: a longer text cannot be a logo, so it is not even decoded.
const MAX_BASE64 = Math.ceil(LOGO_MAX_BYTES / 3) * 4;

/** A logo as the console uploads it and the import document carries it: its type, and its bytes in base64. */
export const ZLogoUpload = z
  .strictObject({ type: z.enum(LOGO_TYPES), data: z.base64().max(MAX_BASE64, `the image is larger than ${LOGO_MAX_BYTES / 1024} KB`) })
  .transform((logo, ctx) => {
    const bytes = new Uint8Array(Buffer.from(logo.data, "base64"));
    const problem = logoProblem(bytes, logo.type);
    if (problem) {
      ctx.addIssue({ code: "custom", message: problem, path: ["data"] });
      return z.NEVER;
    }
    return { type: logo.type, bytes };
  });
export type TLogo = z.output<typeof ZLogoUpload>;

/**
 * The import document's `branding`: the whole look. A part left out is the built-in one, so that a
 * document is the complete truth and importing it twice changes nothing.
 */
export const ZBrandingImport = ZBrandingSettings.partial().extend({ logo: ZLogoUpload.nullable().optional() });
export type TBrandingImport = z.output<typeof ZBrandingImport>;
