import { z } from "zod";

export const ZQrParams = z.object({
  QR_code: z.string().min(1).max(64).describe("the code the QR code holds (also shown as text on the waiting page)"),
});

/** What the signed-in user is asked to confirm: never the waiting browser's secrets. */
export const ZQrSignInRequest = z
  .object({
    client: z.object({ id: z.string(), name: z.string() }).describe("the application the waiting browser signs in to"),
    device: z
      .object({
        kind: z.enum(["desktop", "mobile", "tablet", "unknown"]),
        name: z.string().describe('browser and system parsed from the waiting browser\'s User-Agent, e.g. "Firefox, Windows"'),
      })
      .describe("the browser that shows the QR code"),
    ip: z.string().nullable().describe("the waiting browser's IP address"),
    created: z.number().int().describe("Unix time the code was shown"),
    expiresOn: z.number().int().describe("Unix time after which the code can no longer be confirmed"),
  })
  .meta({ id: "QrSignInRequest" });
export type TQrSignInRequest = z.infer<typeof ZQrSignInRequest>;
