import { z } from "zod";
import { ZClientInput } from "../clients/clients.schemas.ts";

function uniqueIds<T extends { id: string }>(items: T[], ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  items.forEach((item, i) => {
    if (seen.has(item.id)) ctx.addIssue({ code: "custom", message: `duplicate id "${item.id}"`, path: [i, "id"] });
    seen.add(item.id);
  });
}

/**
 * The declarative import document. Each capability adds its own section here (users, rights, groups,
 * providers, attributes, passwordPolicy come with their issues); unknown sections are refused so a
 * typo cannot silently import nothing.
 */
export const ZImportDocument = z.strictObject({
  clients: z.array(ZClientInput).superRefine(uniqueIds).optional(),
});
export type TImportDocument = z.infer<typeof ZImportDocument>;

export type TImportSummary = {
  clients: { created: string[]; updated: string[]; unchanged: string[] };
};
