import { z } from "zod";
import { flatValue } from "../../attributes/attribute-values.ts";
import type { TAttributeDef } from "../../attributes/attributes.schemas.ts";
import type { TCatalog } from "../../attributes/attributes.service.ts";
import { attributesOf, isUnmodifiable, type TAccountVersion } from "../account.ts";
import { readableDefs, type TSelectionPair } from "./v3.ts";

/** The account version record of the contract's v1 section. */
export const ZVersionRecordV1 = z
  .object({
    instanceId: z.string(),
    attrs: z.record(z.string(), z.unknown()).describe("attribute name (v1 alias where one is configured: uid, surname, name, personal_mail, personal_mobile) to value"),
    readOnly: z.boolean(),
    unmodifiable: z.array(z.string()),
  })
  .meta({ id: "VersionRecordV1" });
export type TVersionRecordV1 = z.infer<typeof ZVersionRecordV1>;

export const ZChangeUserV1 = z
  .strictObject({
    instanceId: z.string().min(1).max(1024),
    replaced: z.record(z.string().max(64), z.unknown()).default({}).describe("attributes to set or add (v1 aliases or names)"),
    deleted: z.array(z.string().max(64)).max(100).default([]).describe("attributes to remove"),
  })
  .meta({ id: "ChangeUserV1" });
export type TChangeUserV1 = z.infer<typeof ZChangeUserV1>;

export const ZSearchQueryV1 = z.strictObject({
  query: z.string().min(3).max(300).describe("`{attr}={value}`; `*` in the value matches any characters, e.g. `surname=Ива*`"),
  limit: z.coerce.number().int().min(1).max(1000).default(100).describe("most records returned (default 100)"),
});

/** The name v1 clients know an attribute by: its first alias, else its name. */
export const v1Name = (def: TAttributeDef): string => def.aliases[0] ?? def.name;

/** The record as a client with these selections sees it: what it may not read is left out, what it may not change is unmodifiable. */
export function toVersionRecordV1(account: TAccountVersion, catalog: TCatalog, sel: TSelectionPair): TVersionRecordV1 {
  const all = attributesOf(account);
  const readable = readableDefs(catalog, sel.read);
  const attrs: Record<string, unknown> = {};
  for (const def of readable) if (all[def.name] !== undefined) attrs[v1Name(def)] = flatValue(all[def.name]!);
  return {
    instanceId: account.instanceId,
    attrs,
    readOnly: false,
    unmodifiable: readable.filter((d) => isUnmodifiable(d, account, sel.change)).map(v1Name),
  };
}
