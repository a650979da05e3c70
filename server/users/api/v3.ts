import { z } from "zod";
import type { TAttributeDef } from "../../attributes/attributes.schemas.ts";
import type { TCatalog } from "../../attributes/attributes.service.ts";
import { ZPendingConfirmation, type TPendingConfirmation } from "../../contacts/contacts.schemas.ts";
import { attributeOf, isUnmodifiable, type TAccount } from "../account.ts";

const ZContact = z.object({ value: z.string(), vrf: z.boolean() });

/** GET /api/v3/users/{subjectId}: the catalog's attributes (those the client may read) plus meta. */
export const ZUserV3 = z
  .object({
    sub: z.string().optional(),
    family_name: z.string().optional(),
    given_name: z.string().optional(),
    middle_name: z.string().optional(),
    locked: z.boolean().optional(),
    phone_number: ZContact.optional(),
    email: ZContact.optional(),
    meta: z.object({
      instanceId: z.string().describe("version of the account data; name it to change or delete the account"),
      unmodifiable: z.array(z.string()).describe("attributes this client cannot change: the catalog's unmodifiable ones, those outside its selection, and those a directory keeps for the account (changed in the directory only)"),
    }),
    notes: z.object({ actions: z.array(ZPendingConfirmation) }).optional().describe("present while a contact change awaits its code"),
  })
  .catchall(z.unknown())
  .meta({ id: "UserV3", description: "Attributes follow the configured catalog; those shown are the defaults." });
export type TUserV3 = z.infer<typeof ZUserV3>;

/**
 * POST /api/v3/users/{instanceId}: attributes to change. `null` removes an attribute; phone and
 * e-mail are {value, vrf}. `meta` and `notes` are ignored, so a read can be sent back changed.
 */
export const ZChangeUserV3 = z
  .record(z.string().max(64), z.unknown())
  .refine((o) => Object.keys(o).length <= 100, "at most 100 attributes")
  .transform(({ meta: _meta, notes: _notes, ...attrs }) => attrs)
  .meta({ id: "ChangeUserV3" });

export type TSelectionPair = { read: Set<string> | null; change: Set<string> | null };

/** The catalog's definitions a client may read (null: every one). */
export const readableDefs = (catalog: TCatalog, read: Set<string> | null): TAttributeDef[] => catalog.defs.filter((d) => !read || read.has(d.name));

/** The account's values of these attributes, in catalog order, as v3 reads show them. */
export function attributeValuesV3(account: Pick<TAccount, "id" | "attrs" | "locked">, defs: TAttributeDef[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const def of defs) {
    const v = attributeOf(account, def.name);
    // Contacts in the contract's key order: PostgreSQL's JSONB stores keys in an order of its own.
    if (v !== undefined) out[def.name] = typeof v === "object" && !Array.isArray(v) ? { value: v.value, vrf: v.vrf } : v;
  }
  return out;
}

export function toUserV3(account: TAccount, catalog: TCatalog, sel: TSelectionPair, notes: TPendingConfirmation[]): TUserV3 {
  const readable = readableDefs(catalog, sel.read);
  const out = attributeValuesV3(account, readable);
  out.meta = {
    instanceId: account.instanceId,
    unmodifiable: readable.filter((d) => isUnmodifiable(d, account, sel.change)).map((d) => d.name),
  };
  const visible = notes.filter((n) => !sel.read || sel.read.has(n.attr));
  if (visible.length) out.notes = { actions: visible };
  return out as TUserV3;
}
