import { z } from "zod";
import { ZAttributeDef } from "../attributes/attributes.schemas.ts";
import { ZBrandingImport } from "../branding/branding.schemas.ts";
import { ZSamlSpImport } from "../saml/sps/service-providers.schemas.ts";
import { ZDirectoryImport } from "../directories/directory.schemas.ts";
import { isBuiltinClient } from "../auth/apps.ts";
import { ZClientInput } from "../clients/clients.schemas.ts";
import { ZPasswordPolicy } from "../passwords/policy.schemas.ts";
import { ZPasskeyPolicy } from "../passkeys/passkey-policy.schemas.ts";
import { ZOtpDeviceImport } from "../otp/otp-devices.import.ts";
import { ZRightDefinitionImport } from "../rights/rights.schemas.ts";
import { ZGroupImport, ZGroupProfileImport } from "../groups/groups.schemas.ts";
import { ZUserImport } from "../users/users.import.ts";
import { ZProviderInput } from "../federation/federation.schemas.ts";

function uniqueBy<K extends string>(key: K) {
  return <T extends Record<K, string>>(items: T[], ctx: z.RefinementCtx): void => {
    const seen = new Set<string>();
    items.forEach((item, i) => {
      if (seen.has(item[key])) ctx.addIssue({ code: "custom", message: `duplicate ${key} "${item[key]}"`, path: [i, key] });
      seen.add(item[key]);
    });
  };
}

/** The console's and portal's own clients are the server's to keep (see builtin-clients.ts). */
function noBuiltinClients(items: { id: string }[], ctx: z.RefinementCtx): void {
  items.forEach((item, i) => {
    if (isBuiltinClient(item.id)) {
      ctx.addIssue({ code: "custom", message: `"${item.id}" is a built-in client of the service's console and portal, managed by the server`, path: [i, "id"] });
    }
  });
}

/** A provider is named by its type and name together. */
function uniqueProviders(items: { fpType: string; fpName: string }[], ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  items.forEach((p, i) => {
    const key = `${p.fpType}:${p.fpName}`;
    if (seen.has(key)) ctx.addIssue({ code: "custom", message: `duplicate provider "${key}"`, path: [i, "fpName"] });
    seen.add(key);
  });
}

/**
 * The declarative import document. Each capability adds its own section here (users, rights, groups,
 * providers, attributes, passwordPolicy come with their issues); unknown sections are refused so a
 * typo cannot silently import nothing.
 */
export const ZImportDocument = z.strictObject({
  attributes: z.array(ZAttributeDef).superRefine(uniqueBy("name")).optional(),
  clients: z.array(ZClientInput).superRefine(uniqueBy("id")).superRefine(noBuiltinClients).optional(),
  users: z.array(ZUserImport).superRefine(uniqueBy("sub")).optional(),
  passwordPolicy: ZPasswordPolicy.optional(),
  passkeyPolicy: ZPasskeyPolicy.optional(),
  otpDevices: z.array(ZOtpDeviceImport).max(100).optional(),
  rights: z.array(ZRightDefinitionImport).superRefine(uniqueBy("name")).optional(),
  groupProfiles: z.array(ZGroupProfileImport).max(1000).superRefine(uniqueBy("name")).optional(),
  groups: z.array(ZGroupImport).max(100_000).superRefine(uniqueBy("id")).optional(),
  providers: z.array(ZProviderInput).max(100).superRefine(uniqueProviders).optional(),
  branding: ZBrandingImport.optional(),
  samlServiceProviders: z.array(ZSamlSpImport).max(500).superRefine(uniqueBy("id")).optional(),
  directories: z.array(ZDirectoryImport).max(20).superRefine(uniqueBy("id")).optional(),
});
export type TImportDocument = z.infer<typeof ZImportDocument>;

type TSectionSummary = { created: string[]; updated: string[]; unchanged: string[] };
export type TImportSummary = {
  attributes: TSectionSummary;
  clients: TSectionSummary;
  users: TSectionSummary;
  passwordPolicy: TSectionSummary;
  passkeyPolicy: TSectionSummary;
  otpDevices: TSectionSummary;
  rights: TSectionSummary;
  groupProfiles: TSectionSummary;
  groups: TSectionSummary;
  providers: TSectionSummary;
  branding: TSectionSummary;
  samlServiceProviders: TSectionSummary;
  directories: TSectionSummary;
};
