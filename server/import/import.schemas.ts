import { z } from "zod";
import { ZAttributeDef } from "../attributes/attributes.schemas.ts";
import { ZClientInput } from "../clients/clients.schemas.ts";
import { ZUserImport } from "../users/users.import.ts";

function uniqueBy<K extends string>(key: K) {
  return <T extends Record<K, string>>(items: T[], ctx: z.RefinementCtx): void => {
    const seen = new Set<string>();
    items.forEach((item, i) => {
      if (seen.has(item[key])) ctx.addIssue({ code: "custom", message: `duplicate ${key} "${item[key]}"`, path: [i, key] });
      seen.add(item[key]);
    });
  };
}

/**
 * The declarative import document. Each capability adds its own section here (users, rights, groups,
 * providers, attributes, passwordPolicy come with their issues); unknown sections are refused so a
 * typo cannot silently import nothing.
 */
export const ZImportDocument = z.strictObject({
  attributes: z.array(ZAttributeDef).superRefine(uniqueBy("name")).optional(),
  clients: z.array(ZClientInput).superRefine(uniqueBy("id")).optional(),
  users: z.array(ZUserImport).superRefine(uniqueBy("sub")).optional(),
});
export type TImportDocument = z.infer<typeof ZImportDocument>;

type TSectionSummary = { created: string[]; updated: string[]; unchanged: string[] };
export type TImportSummary = { attributes: TSectionSummary; clients: TSectionSummary; users: TSectionSummary };
