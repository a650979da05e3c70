import { inject } from "vitest";
import { fixtureClient, oauthBasic } from "./fixtures.ts";

export const base = () => inject("baseUrl");

export type TResult = { status: number; headers: Headers; body: any; text: string };

export async function request(path: string, init: RequestInit = {}, origin = base()): Promise<TResult> {
  const res = await fetch(origin + path, { redirect: "manual", ...init });
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, body, text };
}

/** POST {ctx}/oauth/te with a form body (string or record) and optional Basic credentials. */
export function tokenRequest(form: string | Record<string, string>, opts: { basic?: [string, string]; headers?: Record<string, string>; origin?: string } = {}) {
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", ...opts.headers };
  if (opts.basic) headers.authorization = oauthBasic(...opts.basic);
  const body = typeof form === "string" ? form : new URLSearchParams(form).toString();
  return request("/oauth/te", { method: "POST", headers, body }, opts.origin);
}

const tokens = new Map<string, string>();

/** A client_credentials token of a fixture client for `scope` (cached per test file), of the suite's server or the one at `origin`. */
export async function systemToken(clientId: string, scope: string, origin = base()): Promise<string> {
  const key = `${origin} ${clientId} ${scope}`;
  if (!tokens.has(key)) {
    const r = await tokenRequest({ grant_type: "client_credentials", scope }, { basic: [clientId, fixtureClient(clientId).secret], origin });
    if (r.status !== 200) throw new Error(`no token for ${key}: ${r.status} ${r.text}`);
    tokens.set(key, r.body.access_token);
  }
  return tokens.get(key)!;
}

export type TCallOptions = { token?: string; basic?: [string, string]; body?: unknown; headers?: Record<string, string>; origin?: string };

/** A JSON API call with a Bearer token or HTTP Basic (REST password). */
export function api(method: string, path: string, opts: TCallOptions = {}): Promise<TResult> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.basic) headers.authorization = "Basic " + Buffer.from(`${opts.basic[0]}:${opts.basic[1]}`).toString("base64");
  if (opts.body !== undefined) headers["content-type"] ??= "application/json";
  return request(path, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) }, opts.origin);
}
