import { randomBytes } from "node:crypto";
import { api, systemToken, type TResult } from "./http.ts";

/** A value no other test uses: tests share one server and run against its accumulated state. */
export const unique = (prefix: string) => `${prefix}${randomBytes(5).toString("hex")}`;
export const uniquePhone = () => `7${String(Math.floor(Math.random() * 1e10)).padStart(10, "0")}`;

export const usersToken = () => systemToken("users-app", "idp_api_sys_users");
export const changeToken = () => systemToken("users-app", "idp_api_sys_users_chg");
export const regToken = () => systemToken("users-app", "idp_api_sys_users_reg");

/** Registers an account with confirmed contacts and returns its sub and current instanceId. */
export async function createUser(attrs: Record<string, unknown> = {}): Promise<{ sub: string; instanceId: string }> {
  const sub = unique("u-");
  const r = await api("PUT", "/reg/api/v3/users", { token: await regToken(), body: { user: { attrs: { sub, family_name: "Тестов", ...attrs } } } });
  if (r.status !== 200 || !r.body.instanceId) throw new Error(`registration failed: ${r.status} ${r.text}`);
  return { sub, instanceId: r.body.instanceId };
}

/** A fresh account with a password, for tests that sign in as someone no other test disturbs. */
export async function createUserWithPassword(password = "correct horse battery"): Promise<{ sub: string; instanceId: string; password: string }> {
  const sub = unique("pw-");
  const r = await api("PUT", "/reg/api/v3/users", { token: await regToken(), body: { user: { attrs: { sub, family_name: "Входов" }, credentials: { password } } } });
  if (r.status !== 200) throw new Error(`registration failed: ${r.status} ${r.text}`);
  return { sub, instanceId: r.body.instanceId, password };
}

export async function readUser(sub: string): Promise<TResult> {
  return api("GET", `/api/v3/users/${encodeURIComponent(sub)}`, { token: await usersToken() });
}

export async function changeUser(instanceId: string, body: unknown, headers?: Record<string, string>): Promise<TResult> {
  return api("POST", `/api/v3/users/${encodeURIComponent(instanceId)}`, { token: await changeToken(), body, headers });
}
