import { randomBytes } from "node:crypto";
import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import { hashSecret } from "../crypto/password-hash.ts";
import { inTransaction } from "../db/index.ts";
import { AppError } from "../errors/app-error.ts";
import { subjectOfInstance } from "./account.ts";
import { findUserById, findUserByLogin, lockActiveWithRole, updateCredentials } from "./users.repository.ts";
import { createAccount } from "./users.service.ts";

export const ADMIN_LOGIN = "admin";
export const ADMIN_ROLE = "admin";

/**
 * Creates the `admin` account on first start. The password comes from IDP_ADMIN_PASSWORD; in the
 * embedded mode without it one is generated and returned so the caller can print it once. On
 * PostgreSQL a generated password would be lost among several instances' logs, so it is required.
 */
export async function bootstrapAdmin(opts: { password?: string; embedded: boolean }): Promise<{ created: boolean; id?: string; generatedPassword?: string }> {
  if (await findUserByLogin(ADMIN_LOGIN)) return { created: false };
  if (!opts.password && !opts.embedded) {
    throw new Error("IDP_ADMIN_PASSWORD: is required to create the first administrator on PostgreSQL");
  }
  const password = opts.password ?? randomBytes(12).toString("base64url");
  const passwordHash = await hashSecret(password);
  // An ordinary account of the catalog that also has the administrator role and a console login.
  const admin = await inTransaction((tx) =>
    createAccount({ attrs: {}, passwordHash, roles: [ADMIN_ROLE], login: ADMIN_LOGIN }, { contactFlag: "vrf", allowed: null }, tx),
  );
  await recordEvent("user.admin_bootstrapped", {}, { login: ADMIN_LOGIN });
  return { created: true, id: admin.id, generatedPassword: opts.password ? undefined : password };
}

/**
 * The console's roles, kept in the account's `roles` beside any an application gave it:
 * - admin: everything, the service's configuration included;
 * - user_manager: reads everything, and manages people's accounts (attributes, lock, password,
 *   recovery message, second factor, sessions, group membership), except accounts that hold a
 *   console role themselves, so that a user manager cannot take over an administrator;
 * - auditor: reads everything, changes nothing.
 * No role reads what the console never shows (secrets, seeds); reading a message's text in the
 * outbox (it can hold a code) is the administrator's.
 */
export const CONSOLE_ROLES = ["admin", "user_manager", "auditor"] as const;
export type TConsoleRole = (typeof CONSOLE_ROLES)[number];
export type TConsoleGrant = "read" | "manage_users" | "configure";
const GRANTS: Record<TConsoleRole, TConsoleGrant[]> = { admin: ["read", "manage_users", "configure"], user_manager: ["read", "manage_users"], auditor: ["read"] };

const consoleRolesIn = (roles: string[]): TConsoleRole[] => CONSOLE_ROLES.filter((r) => roles.includes(r));
const grantsOf = (roles: string[]): TConsoleGrant[] => [...new Set(consoleRolesIn(roles).flatMap((r) => GRANTS[r]))];

export type TConsoleUser = { id: string; login: string; roles: TConsoleRole[]; grants: TConsoleGrant[] };

/**
 * Whom the console admits, at sign-in and again on every call: a console session is a signed cookie
 * that outlives a lock or a removed role, and those must end access at once, not when the cookie expires.
 */
export async function findActiveAdmin(id: string): Promise<TConsoleUser | null> {
  const user = await findUserById(id);
  const roles = user && !user.locked ? consoleRolesIn(user.roles) : [];
  return user && roles.length ? { id: user.id, login: user.login ?? user.id, roles, grants: grantsOf(roles) } : null;
}

/** Whether the account holds a console role: what only an administrator may change, or send a recovery link to. */
export async function holdsConsoleRole(id: string): Promise<boolean> {
  const user = await findUserById(id);
  return !!user && consoleRolesIn(user.roles).length > 0;
}

/**
 * Refuses a user manager's change to an account that holds a console role (its password, its second
 * factor…): otherwise a user manager could make themselves an administrator's session. The account
 * is named as the console's procedures name it, by `sub` or by `instanceId`.
 */
export async function requireManageable(actor: TConsoleUser, target: { sub?: unknown; instanceId?: unknown }): Promise<void> {
  if (actor.grants.includes("configure")) return;
  const id = typeof target.sub === "string" ? target.sub : typeof target.instanceId === "string" ? subjectOfInstance(target.instanceId) : undefined;
  const user = id === undefined ? null : await findUserById(id);
  if (user && consoleRolesIn(user.roles).length > 0) throw new AppError("console.privileged_account");
}

/**
 * Sets the account's console roles, keeping its other roles. The last active administrator keeps
 * the role: the check and the change share a transaction that locks every administrator's row.
 */
export async function setConsoleRoles(id: string, wanted: TConsoleRole[], actor: TEventActor, note: Record<string, unknown> = {}): Promise<TConsoleRole[]> {
  const changed = await inTransaction(async (tx) => {
    const admins = await lockActiveWithRole(ADMIN_ROLE, tx);
    const user = await findUserById(id, tx);
    if (!user) throw new AppError("user.not_found", { params: { userId: id } });
    const before = consoleRolesIn(user.roles);
    const after = CONSOLE_ROLES.filter((r) => wanted.includes(r));
    if (before.includes(ADMIN_ROLE) && !after.includes(ADMIN_ROLE) && admins.filter((a) => a !== id).length === 0) throw new AppError("console.last_admin");
    await updateCredentials(id, { roles: [...user.roles.filter((r) => !consoleRolesIn([r]).length), ...after] }, tx);
    return { added: after.filter((r) => !before.includes(r)), removed: before.filter((r) => !after.includes(r)), after };
  });
  if (changed.added.length || changed.removed.length) await recordEvent("user.roles_changed", { ...actor, subject: id }, { added: changed.added, removed: changed.removed, ...note });
  return changed.after;
}
