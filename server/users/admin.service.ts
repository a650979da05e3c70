import { randomBytes } from "node:crypto";
import { recordEvent } from "../audit/audit.service.ts";
import { hashSecret } from "../crypto/password-hash.ts";
import { inTransaction } from "../db/index.ts";
import { findUserById, findUserByLogin } from "./users.repository.ts";
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

export type TConsoleUser = { id: string; login: string; roles: string[] };

/**
 * Whom the console admits, at sign-in and again on every call: a console session is a signed cookie
 * that outlives a lock or a removed role, and those must end access at once, not when the cookie expires.
 */
export async function findActiveAdmin(id: string): Promise<TConsoleUser | null> {
  const user = await findUserById(id);
  return user && !user.locked && user.roles.includes(ADMIN_ROLE) ? { id: user.id, login: user.login ?? user.id, roles: user.roles } : null;
}
