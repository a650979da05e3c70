import { z } from "zod";
import { ZAttributeName } from "../attributes/attributes.schemas.ts";
import { ZEventCursor } from "../audit/audit.schemas.ts";
import { CONTACT_ACTIONS } from "../contacts/contacts.schemas.ts";

// Inputs of the portal's procedures. None names an account: every procedure acts on the signed-in
// person (ctx.user.sub), so ids in these inputs are looked up among that person's own records only.

const ZInstanceId = z.string().min(1).max(1024).describe("meta.instanceId of the profile as read");
const ZLang = z.enum(["ru", "en"]).describe("the language the code's message is written in");
const ZItemId = z.strictObject({ id: z.string().min(1).max(256) });

export const ZProfileUpdate = z.strictObject({
  instanceId: ZInstanceId,
  /** Changed attributes only; null removes one. Checked against the catalog by the users service. */
  attributes: z.record(ZAttributeName, z.unknown()),
});

export const ZContactStart = z.strictObject({
  instanceId: ZInstanceId,
  attr: ZAttributeName,
  value: z.string().trim().min(1).max(254),
  lang: ZLang,
});

const ZConfirmation = { state: z.string().min(1).max(64), kind: z.enum(Object.keys(CONTACT_ACTIONS) as ["phone", "email"]), lang: ZLang };

export const ZContactConfirm = z.strictObject({ ...ZConfirmation, code: z.string().trim().min(1).max(32) });
export const ZContactResend = z.strictObject(ZConfirmation);

export const ZDeviceRef = ZItemId;
export const ZConsentRef = ZItemId;

export const ZEventsQuery = z.strictObject({
  types: z.array(z.string().regex(/^[a-z0-9_.]{1,64}$/)).max(30).optional(),
  cursor: ZEventCursor.optional(),
  limit: z.number().int().min(1).max(100).default(25),
  /** Sent by TanStack's infinite queries; pages only go forward (older), so it changes nothing. */
  direction: z.enum(["forward", "backward"]).optional(),
});
export type TEventsQuery = z.input<typeof ZEventsQuery>;

/** The portal's change-password form; lengths beyond the policy are the policy's to refuse, with its words. */
export const ZOwnPasswordChange = z.strictObject({
  current: z.string().min(1).max(4096),
  password: z.string().max(4096),
  locale: z.enum(["ru", "en"]).default("ru"),
});
