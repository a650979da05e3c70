import { z } from "zod";

/** A device or browser the user signed in from, as the apps list shows it. */
export const ZUserApp = z
  .object({
    id: z.string().describe("the device id: what IDP-CI-UA-ID names and DELETE …/apps/{id} removes"),
    kind: z.enum(["desktop", "mobile", "tablet", "unknown"]),
    name: z.string().describe('browser and system parsed from the User-Agent, e.g. "Firefox, Windows"'),
    firstSeen: z.number().int().describe("Unix time of the first sign-in from it"),
    lastSeen: z.number().int().describe("Unix time of the last sign-in or use"),
    lastIp: z.string().nullable(),
  })
  .meta({ id: "UserApp" });
export type TUserApp = z.infer<typeof ZUserApp>;

export const ZSubjectParams = z.object({ subjectId: z.string().min(1).max(256).describe("account id (sub), or `current` in user mode") });
export const ZSubjectItemParams = ZSubjectParams.extend({ id: z.string().min(1).max(256) });
