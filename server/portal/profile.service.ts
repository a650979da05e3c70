import type { TAttrValue } from "../attributes/attribute-values.ts";
import { CONTACT_TYPES, type TAttributeDef } from "../attributes/attributes.schemas.ts";
import { getCatalog } from "../attributes/attributes.service.ts";
import { selectionFor } from "../attributes/selections.service.ts";
import type { TEventActor } from "../audit/audit.service.ts";
import { AUTH_APPS } from "../auth/apps.ts";
import { waitingChanges } from "../contacts/contact-change.service.ts";
import type { TConfirmationRow } from "../contacts/confirmation-row.ts";
import type { TContactKind } from "../contacts/contacts.schemas.ts";
import { AppError } from "../errors/app-error.ts";
import { subjectOfInstance } from "../users/account.ts";
import { changeAttributes, readAccount } from "../users/users.service.ts";

/**
 * The portal is the built-in client idp-portal: what it shows is that client's selection for
 * idp_api_user, what it changes its selection for idp_api_user_chg (both: the whole catalog unless an
 * administrator narrowed them in the console), less what nobody changes about themselves.
 */
const PORTAL_CLIENT = AUTH_APPS.portal.clientId;
// The account id is shown in the header; `locked` is the administrators' to set, never a field.
const NOT_FIELDS = new Set(["sub", "locked"]);

export const isContactDef = (def: TAttributeDef): boolean => CONTACT_TYPES.includes(def.type);

export type TPortalAttributes = { shown: TAttributeDef[]; editable: Set<string> };

export async function portalAttributes(): Promise<TPortalAttributes> {
  const catalog = await getCatalog();
  // One after the other: both come from the client's one cache entry, which the first call fills.
  const read = await selectionFor(PORTAL_CLIENT, "idp_api_user");
  const change = await selectionFor(PORTAL_CLIENT, "idp_api_user_chg");
  const shown = catalog.defs.filter((d) => !NOT_FIELDS.has(d.name) && (!read || read.has(d.name)));
  const editable = shown.filter((d) => !d.unmodifiable && (!change || change.has(d.name)));
  return { shown, editable: new Set(editable.map((d) => d.name)) };
}

/**
 * A version id is the account's as well as the version's: one that names another account can only
 * be forged, and is answered as if that account did not exist, before anything is read or written.
 */
export function assertOwnVersion(sub: string, instanceId: string): void {
  if (subjectOfInstance(instanceId) !== sub) throw new AppError("user.not_found", { params: { instanceId } });
}

/** A change of address waiting for its code, in seconds from now. Never the code. */
export type TPendingContactView = { state: string; value: string; expiresIn: number; attemptsLeft: number; resendIn: number };

export type TContactView = {
  attr: string;
  kind: TContactKind;
  required: boolean;
  editable: boolean;
  /** Kept by the organisation's directory: changed there, never here. */
  owned: boolean;
  value: string | null;
  verified: boolean;
  pending: TPendingContactView | null;
};

export type TProfileField = TAttributeDef & { editable: boolean; owned: boolean };

export type TProfile = {
  instanceId: string;
  /** Attributes other than contacts, in catalog order. */
  fields: TProfileField[];
  /** Their stored values (absent: not set). */
  attributes: Record<string, TAttrValue>;
  /** E-mail, phone and any other contact attribute: changed by code, not by the form. */
  contacts: TContactView[];
};

const secondsUntil = (d: Date, now: number) => Math.max(0, Math.ceil((d.getTime() - now) / 1000));

function pendingOf(rows: TConfirmationRow[], attr: string, now: number): TPendingContactView | null {
  const row = rows.find((r) => r.attr === attr && r.expiresAt.getTime() > now);
  if (!row) return null;
  return { state: row.state, value: row.value, expiresIn: secondsUntil(row.expiresAt, now), attemptsLeft: row.attemptsLeft, resendIn: secondsUntil(row.resendAt, now) };
}

function contactOf(def: TAttributeDef, stored: TAttrValue | undefined, owned: boolean, editable: boolean, pending: TPendingContactView | null): TContactView {
  const c = typeof stored === "object" && !Array.isArray(stored) ? stored : null;
  return { attr: def.name, kind: def.type as TContactKind, required: def.required, editable: editable && !owned, owned, value: c?.value ?? null, verified: c?.vrf ?? false, pending };
}

/** The signed-in person's profile as the portal may show it, with the address changes that wait for a code. */
export async function readProfile(sub: string): Promise<TProfile> {
  const [account, { shown, editable }, waiting] = await Promise.all([readAccount(sub), portalAttributes(), waitingChanges(sub)]);
  const now = Date.now();
  const owned = new Set(account.ownedAttrs);
  const fields = shown.filter((d) => !isContactDef(d)).map((d) => ({ ...d, editable: editable.has(d.name) && !owned.has(d.name), owned: owned.has(d.name) }));
  const attributes = Object.fromEntries(fields.filter((f) => account.attrs[f.name] !== undefined).map((f) => [f.name, account.attrs[f.name]!]));
  const contacts = shown.filter(isContactDef).map((d) => contactOf(d, account.attrs[d.name], owned.has(d.name), editable.has(d.name), pendingOf(waiting, d.name, now)));
  return { instanceId: account.instanceId, fields, attributes, contacts };
}

/**
 * Saves the profile form through the same service as PUT /api/v3/users: the catalog's types and
 * validators, the portal's selection, and the version read (a form shown before a change made
 * elsewhere is refused as stale, changing nothing). Contacts are not the form's: they change by code.
 */
export async function updateProfile(sub: string, input: { instanceId: string; attributes: Record<string, unknown> }, actor: TEventActor): Promise<TProfile> {
  assertOwnVersion(sub, input.instanceId);
  const { shown, editable } = await portalAttributes();
  const allowed = new Set(shown.filter((d) => editable.has(d.name) && !isContactDef(d)).map((d) => d.name));
  await changeAttributes(input.instanceId, input.attributes, { contactFlag: "vrf", confirmUnverified: true, allowed, expectSubject: sub, actor });
  return readProfile(sub);
}
