import { z } from "zod";
import { flatValue, normalizePhone } from "../attributes/attribute-values.ts";
import { getCatalog } from "../attributes/attributes.service.ts";
import { recordEvents, type TEventActor } from "../audit/audit.service.ts";
import { pendingNotes } from "../contacts/contact-change.service.ts";
import { hashSecret } from "../crypto/password-hash.ts";
import { inTransaction } from "../db/index.ts";
import { AppError } from "../errors/app-error.ts";
import { checkPassword, violationItem } from "../passwords/policy.ts";
import { getPasswordPolicy } from "../passwords/policy-store.ts";
import { attributesOf, displayNameOf, subjectOfInstance } from "./account.ts";
import { publishAccountChange } from "./account-cache.ts";
import { findAccountPage, findLogins } from "./users-console.repository.ts";
import { findAccounts } from "./users.repository.ts";
import { decodeCursor, encodeCursor } from "./users-list-cursor.ts";
import { DEFAULT_SORT_DIR, DEFAULT_USER_SORT, SORT_DIRS, USER_SORTS } from "./users-list.shared.ts";
import { accountAtVersion, changeAttributes, createAccount, deleteAccount, readAccount } from "./users.service.ts";
import { changePassword } from "../passwords/password-change.service.ts";
import { changeAuthModes } from "../auth-modes/auth-modes.service.ts";
import type { TLocale } from "../http/locale.ts";
import { maskRecipient } from "../messaging/recipient-mask.ts";
import { confirmedContacts, tellAccountHolder } from "../notices/account-notices.ts";

export { countAccounts } from "./users-console.repository.ts";

// A cursor carries the last row's key: an e-mail address or a name, as long as the catalog allows.
const MAX_CURSOR = 4096;

export const ZListUsersRequest = z.strictObject({
  search: z.string().trim().max(100).optional(),
  sort: z.enum(USER_SORTS).default(DEFAULT_USER_SORT),
  dir: z.enum(SORT_DIRS).default(DEFAULT_SORT_DIR),
  /** Keyset cursor: nextCursor of the previous page, in the same order. */
  after: z.string().max(MAX_CURSOR).optional(),
  limit: z.number().int().min(1).max(100).default(25),
});
export type TListUsersRequest = z.input<typeof ZListUsersRequest>;

/** What a search box means: digits that make a phone look for the phone, otherwise lower-cased text. */
function likeOf(search: string): string | undefined {
  if (!search) return undefined;
  const phone = normalizePhone(search);
  const text = (phone ?? search).toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
  return [...text].length >= 3 ? `%${text}%` : `${text}%`;
}

/** The list's row of each account in `ids` that exists, in the order of `ids`: names, contacts, status, roles. */
export async function userRows(ids: string[]) {
  const [accounts, logins] = await Promise.all([findAccounts(ids), findLogins(ids)]);
  const byId = new Map(accounts.map((a) => [a.id, a]));
  return [...new Set(ids)].flatMap((id) => byId.get(id) ?? []).map((a) => {
    const all = attributesOf(a);
    const text = (k: string) => (all[k] === undefined ? null : String(flatValue(all[k]!)));
    const confirmed = (k: string) => {
      const v = all[k];
      return typeof v === "object" && !Array.isArray(v) ? v.vrf : null;
    };
    return {
      sub: a.id,
      login: logins.get(a.id) ?? null,
      familyName: text("family_name"),
      givenName: text("given_name"),
      email: text("email"),
      emailConfirmed: confirmed("email"),
      phone: text("phone_number"),
      phoneConfirmed: confirmed("phone_number"),
      locked: a.locked,
      roles: a.roles,
      createdAt: a.createdAt,
    };
  });
}

/** The accounts the users list's search finds for `text` (name, login, e-mail, phone…), at most `limit`. */
export async function subjectsMatching(text: string, limit: number): Promise<string[]> {
  const like = likeOf(text.trim());
  return like ? (await findAccountPage({ like, sort: DEFAULT_USER_SORT, dir: DEFAULT_SORT_DIR, limit })).rows.map((r) => r.id) : [];
}

export async function listUsers(req: TListUsersRequest) {
  const { search, sort, dir, after, limit } = ZListUsersRequest.parse(req);
  const like = likeOf(search ?? "");
  const { rows, total } = await findAccountPage({ like, sort, dir, after: after === undefined ? undefined : decodeCursor(sort, after), limit: limit + 1 });
  const shown = rows.slice(0, limit);
  const items = await userRows(shown.map((r) => r.id));
  return { items, total, nextCursor: rows.length > limit ? encodeCursor(sort, shown.at(-1)!) : null };
}

/**
 * One account for the console: every attribute (no client selection applies), roles and pending
 * changes, and whether it is the account of `viewer`, the administrator looking at it.
 */
export async function getUserDetail(sub: string, viewer: string | undefined) {
  const [account, catalog, notes] = await Promise.all([readAccount(sub), getCatalog(), pendingNotes(sub)]);
  return {
    sub: account.id,
    instanceId: account.instanceId,
    attributes: attributesOf(account),
    roles: account.roles,
    /** Kept by a directory: read-only here, changed there. */
    ownedAttrs: account.ownedAttrs,
    createdAt: account.createdAt,
    updatedAt: account.updatedAt,
    catalog: catalog.defs,
    pending: notes,
    ownAccount: account.id === viewer,
  };
}

/**
 * The console's administrator cannot lock or delete the account they are signed in with: the one
 * signed in may be the last administrator, and a locked one could not sign in again to undo it.
 * Another administrator can (the console's sign-in admits only active administrators).
 */
function refuseOwnAccount(instanceId: string, actor: TEventActor): void {
  if (actor.subject !== undefined && subjectOfInstance(instanceId) === actor.subject) throw new AppError("console.own_account");
}

/**
 * The administrator sets contacts directly with their vrf flag: no code goes out. A confirmed
 * address that changed is told, the old one too (it no longer hears of the account otherwise),
 * so that a contact swapped in the console does not go unnoticed.
 */
export async function updateUserAttributes(instanceId: string, changes: Record<string, unknown>, actor: TEventActor) {
  if (changes.locked === true) refuseOwnAccount(instanceId, actor);
  const before = await confirmedContacts(await accountAtVersion(instanceId));
  const { account } = await changeAttributes(instanceId, changes, { contactFlag: "vrf", confirmUnverified: false, allowed: null, actor });
  const after = await confirmedContacts(account);
  const same = (a: { channel: string; to: string }, b: { channel: string; to: string }) => a.channel === b.channel && a.to === b.to;
  const gone = before.filter((b) => !after.some((a) => same(a, b)));
  const added = after.filter((a) => !before.some((b) => same(a, b)));
  if (gone.length || added.length) {
    await tellAccountHolder(account, { kind: "contact_changed", actor, detail: added.map((a) => maskRecipient(a.to)).join(", ") || undefined, alsoTo: gone });
  }
  return getUserDetail(account.id, actor.subject);
}

export async function deleteUser(instanceId: string, actor: TEventActor): Promise<void> {
  refuseOwnAccount(instanceId, actor);
  await deleteAccount(instanceId, { actor });
}

/** A text attribute, or a contact's value, that is there and not blank. */
function filledIn(value: unknown): boolean {
  const text = typeof value === "object" && value !== null && !Array.isArray(value) ? (value as { value?: unknown }).value : value;
  return typeof text === "string" && text.trim() !== "";
}

/**
 * Creates an account from the console. It needs something to be found and signed in by: a subject
 * chosen here, an e-mail or a phone; a generated subject alone would leave an account nobody can name.
 */
export async function createUser(input: { attributes: Record<string, unknown>; password?: string }, actor: TEventActor) {
  if (!["sub", "email", "phone_number"].some((k) => filledIn(input.attributes[k]))) {
    throw new AppError("request.invalid_values", { items: [{ error: "wrong_value", desc: "give a subject, an e-mail or a phone: an account with none of them cannot be found or signed in to", pos: "sub" }] });
  }
  const violations = input.password === undefined ? [] : checkPassword(input.password, await getPasswordPolicy(), { secondFactor: false });
  if (violations.length) throw new AppError("request.invalid_values", { items: violations.map((v) => violationItem(v, "en")) });
  const passwordHash = input.password ? await hashSecret(input.password) : null;
  // An empty sub field in the form means "generate one".
  const { sub, ...attrs } = input.attributes;
  const account = await inTransaction(async (tx) => {
    const created = await createAccount({ attrs: sub === "" ? attrs : input.attributes, passwordHash }, { contactFlag: "vrf", allowed: null }, tx);
    await recordEvents([{ type: "user.created", actor: { ...actor, subject: created.id }, params: { by: "console" } }], tx);
    return created;
  });
  await publishAccountChange(account.id);
  return getUserDetail(account.id, actor.subject);
}

/**
 * The administrator sets the account's password (the policy applies, but not its minimum age):
 * as any reset, the person's sessions and tokens end and they are told. With `mustChange` the next
 * sign-in asks for a new one before it completes. `locale`: the console's language, for the policy's words.
 */
export async function setUserPassword(instanceId: string, input: { password: string; mustChange: boolean; locale: TLocale }, actor: TEventActor) {
  const account = await accountAtVersion(instanceId);
  await changePassword(account, { password: input.password, locale: input.locale }, { mode: "system", actor, note: { by: "console" }, administratorReset: true });
  if (input.mustChange) await changeAuthModes(account.id, { needPasswordChange: true }, actor, { by: "console" });
  return getUserDetail(account.id, actor.subject);
}

/** How the console names an account wherever it shows one: its name, else its login or e-mail; the id stays a detail. */
export type TPersonLabel = { name: string | null; login: string | null; email: string | null };

/** The labels of the accounts among `ids` that exist (one read for a page of rows). */
export async function labelsOf(ids: string[]): Promise<Map<string, TPersonLabel>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const [accounts, logins] = await Promise.all([findAccounts(unique), findLogins(unique)]);
  return new Map(
    accounts.map((a) => {
      const email = a.attrs.email as { value?: unknown } | undefined;
      return [a.id, { name: displayNameOf(a), login: logins.get(a.id) ?? null, email: typeof email?.value === "string" ? email.value : null }];
    }),
  );
}
