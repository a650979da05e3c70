import { z } from "zod";

/** A device or browser the user signed in from, or an installation of a mobile application, as the apps list shows it. */
export const ZUserApp = z
  .object({
    id: z.string().describe("the device id (what IDP-CI-UA-ID names), or an app instance's client_id; what DELETE …/apps/{id} removes"),
    kind: z.enum(["desktop", "mobile", "tablet", "unknown", "app_instance"]).describe("app_instance: a mobile application installation (dynamic registration, POST /oauth/register)"),
    name: z.string().describe('browser and system parsed from the User-Agent, e.g. "Firefox, Windows"; for an app instance its client_name'),
    firstSeen: z.number().int().describe("Unix time of the first sign-in from it (an app instance: when it was bound to the user)"),
    lastSeen: z.number().int().describe("Unix time of the last sign-in or use"),
    lastIp: z.string().nullable(),
    clientId: z.string().optional().describe("app_instance: its own client_id"),
    parentClientId: z.string().optional().describe("app_instance: the application it was registered under"),
    softwareId: z.string().optional().describe("app_instance: software_id of its registration"),
    softwareVersion: z.string().optional().describe("app_instance: software_version of its registration"),
  })
  .meta({ id: "UserApp" });
export type TUserApp = z.infer<typeof ZUserApp>;

export const ZSubjectParams = z.object({ subjectId: z.string().min(1).max(256).describe("account id (sub), or `current` in user mode") });
export const ZSubjectItemParams = ZSubjectParams.extend({ id: z.string().min(1).max(256) });
