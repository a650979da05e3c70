import { AppError } from "../../errors/app-error.ts";
import { OutboundRefused, outboundFetch } from "../../http/outbound.ts";
import { readLimited } from "../discovery.service.ts";
import type { TProviderKey } from "../federation.schemas.ts";

/*
 * Calls to a provider's token and userinfo endpoints: bounded in time and size, redirects not
 * followed. A provider that cannot be reached or answers out of protocol is "unavailable" (502); one
 * that answers an OAuth error (invalid_grant …) has "refused" (the caller decides what that means).
 * Neither the request nor the answer is ever logged: both carry secrets.
 */

export const PROVIDER_TIMEOUT_MS = 10_000;
export const PROVIDER_MAX_BYTES = 256 * 1024;

export type TProviderAnswer = { ok: true; body: Record<string, unknown> } | { ok: false; error: string; description?: string };

/** RFC 6749 §2.3.1: client_secret_basic encodes id and secret as form values before base64. */
export function basicCredentials(clientId: string, secret: string): string {
  const enc = (s: string) => encodeURIComponent(s).replace(/%20/g, "+");
  return "Basic " + Buffer.from(`${enc(clientId)}:${enc(secret)}`).toString("base64");
}

const unavailable = (provider: TProviderKey, reason: string) => new AppError("federation.provider_unavailable", { params: { ...provider, reason } });

async function call(provider: TProviderKey, what: string, url: string, init: RequestInit): Promise<{ status: number; json: unknown }> {
  let res: Response;
  try {
    res = await outboundFetch(url, { ...init, redirect: "manual", signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) });
  } catch (e) {
    if (e instanceof OutboundRefused) throw unavailable(provider, `${what}: refused: ${e.message}`);
    const name = (e as Error)?.name;
    throw unavailable(provider, name === "TimeoutError" || name === "AbortError" ? `${what}: no answer within ${PROVIDER_TIMEOUT_MS} ms` : `${what}: cannot reach the provider`);
  }
  let text: string;
  try {
    text = await readLimited(res, PROVIDER_MAX_BYTES);
  } catch (e) {
    throw unavailable(provider, `${what}: ${(e as Error).message}`);
  }
  try {
    return { status: res.status, json: JSON.parse(text) };
  } catch {
    throw unavailable(provider, `${what}: HTTP ${res.status}, not JSON`);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** POST to the token endpoint with the client's credentials (RFC 6749 §3.2). */
export async function tokenRequest(provider: TProviderKey, url: string, form: Record<string, string>, auth: { clientId: string; secret?: string }): Promise<TProviderAnswer> {
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", accept: "application/json" };
  const body = new URLSearchParams(form);
  if (auth.secret !== undefined) headers.authorization = basicCredentials(auth.clientId, auth.secret);
  else body.set("client_id", auth.clientId);
  const { status, json } = await call(provider, "token endpoint", url, { method: "POST", headers, body: body.toString() });
  if (status === 200 && isObject(json)) return { ok: true, body: json };
  // RFC 6749 §5.2: 400 (or 401 for client authentication) with an error code is a refusal, anything else is not protocol.
  if ((status === 400 || status === 401) && isObject(json) && typeof json.error === "string") {
    return { ok: false, error: json.error, description: typeof json.error_description === "string" ? json.error_description : undefined };
  }
  throw unavailable(provider, `token endpoint: HTTP ${status}`);
}

/** GET the userinfo endpoint with the access token (OIDC Core §5.3); a JSON answer only. */
export async function userinfoRequest(provider: TProviderKey, url: string, accessToken: string): Promise<Record<string, unknown>> {
  const { status, json } = await call(provider, "userinfo endpoint", url, { headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" } });
  if (status !== 200 || !isObject(json)) throw unavailable(provider, `userinfo endpoint: HTTP ${status}`);
  return json;
}
