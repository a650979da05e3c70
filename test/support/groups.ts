import { unique } from "./accounts.ts";
import { Browser, uniqueIp } from "./browser.ts";
import { api, systemToken, type TResult } from "./http.ts";
import { webTokens } from "./oidc.ts";

export const readToken = () => systemToken("groups-app", "idp_api_sys_groups");
export const changeToken = () => systemToken("groups-app", "idp_api_sys_groups_chg");
export const auditOf = async (sub: string, type: string) =>
  (await api("GET", `/api/v3/users/${sub}/audit?type=${type}`, { token: await systemToken("users-app", "idp_api_sys_uaud") })).body.events as Record<string, unknown>[];

/** A change by the system token of groups-app. */
export async function change(method: string, path: string, body?: unknown): Promise<TResult> {
  return api(method, path, { token: await changeToken(), body });
}

export async function readGroup(id: string, token?: string): Promise<TResult> {
  return api("GET", `/api/v3/groups/${id}`, { token: token ?? (await readToken()) });
}

/** A new group of `profile` (orgs by default: `name` is required there). */
export async function createGroup(profile = "orgs", attrs: Record<string, unknown> = { name: "Acme" }): Promise<{ id: string; instanceId: string }> {
  const id = unique("g-");
  const r = await change("POST", `/api/v3/groups/${profile}/${id}`, attrs);
  if (r.status !== 201) throw new Error(`group not created: ${r.status} ${r.text}`);
  return { id, instanceId: r.body.instanceId };
}

/** A user token of the account through rp-web with these scopes. */
export async function userToken(who: { sub: string; password: string }, scope: string): Promise<string> {
  const { tokens } = await webTokens(new Browser({ "x-forwarded-for": uniqueIp() }), { scope: `openid ${scope}` }, { identifier: who.sub, password: who.password });
  return tokens.access_token;
}
