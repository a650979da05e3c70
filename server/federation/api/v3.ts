import { z } from "zod";
import { ZFpName, ZFpType, ZSid } from "../federation.schemas.ts";
import type { TBindingRow } from "../bindings.repository.ts";

/** One external account bound to the user, as GET /api/v3/users/{subjectId}/fa lists it. */
export const ZFederatedAccountV3 = z
  .object({
    sid: z.string().describe("account id at the external provider"),
    fpType: z.string().describe("provider type: oidc or oauth2"),
    fpName: z.string().describe("provider name"),
    userName: z.string().optional().describe("user name at the provider, when known"),
  })
  .meta({ id: "FederatedAccount" });
export type TFederatedAccountV3 = z.infer<typeof ZFederatedAccountV3>;

export function toFederatedAccountV3(row: TBindingRow): TFederatedAccountV3 {
  return { sid: row.sid, fpType: row.fpType, fpName: row.fpName, ...(row.userName !== null ? { userName: row.userName } : {}) };
}

export const ZBindingParams = z.object({
  subjectId: z.string().min(1).max(256).describe("account id (sub), or `current` in user mode"),
  fpType: ZFpType,
  fpName: ZFpName,
  sid: ZSid,
});

export const ZBindBody = z
  .strictObject({ federatedAccountName: z.string().min(1).max(256).optional().describe("user name at the provider; absent keeps the earlier one") })
  .meta({ id: "BindFederatedAccount" });
