import { inject } from "vitest";
import { oauthBasic } from "./fixtures.ts";

export const base = () => inject("baseUrl");

export type TResult = { status: number; headers: Headers; body: any; text: string };

export async function request(path: string, init: RequestInit = {}): Promise<TResult> {
  const res = await fetch(base() + path, { redirect: "manual", ...init });
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
export function tokenRequest(form: string | Record<string, string>, opts: { basic?: [string, string]; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", ...opts.headers };
  if (opts.basic) headers.authorization = oauthBasic(...opts.basic);
  const body = typeof form === "string" ? form : new URLSearchParams(form).toString();
  return request("/oauth/te", { method: "POST", headers, body });
}
