import { createHash, randomBytes } from "node:crypto";
import { alertOf, Browser, type TPage } from "./browser.ts";
import { base, request, type TResult } from "./http.ts";
import { oauthBasic } from "./fixtures.ts";

/** The fixture's relying parties: a confidential one that asks for consent, a public first-party one. */
export const WEB = { id: "rp-web", secret: "rp-web-secret", redirectUri: "https://rp.example.test/callback", logoutUri: "https://rp.example.test/signed-out" };
export const SPA = { id: "rp-spa", redirectUri: "https://spa.example.test/cb", logoutUri: "https://spa.example.test/" };
export const IVANOV = { sub: "ivanov", password: "ivanov-password", email: "ivanov@example.ru", phone: "79990000001" };

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

export function authorizeUrl(params: Record<string, string>, origin = base()): string {
  return `${origin}/oauth/ae?${new URLSearchParams(params)}`;
}

/** An authorization request of rp-web with PKCE; returns the URL and the verifier. */
export function webAuthorization(extra: Record<string, string> = {}, origin = base()) {
  const { verifier, challenge } = pkcePair();
  const url = authorizeUrl({
    response_type: "code",
    client_id: WEB.id,
    redirect_uri: WEB.redirectUri,
    scope: "openid profile email offline_access idp_api_user",
    state: randomBytes(8).toString("hex"),
    nonce: randomBytes(8).toString("hex"),
    code_challenge: challenge,
    code_challenge_method: "S256",
    ...extra,
  }, origin);
  return { url, verifier };
}

/**
 * Drives the browser from an authorization URL to the redirect back to the client: the sign-in form
 * when it is shown, the consent form when it is shown. Returns the final page (a redirect off the service).
 */
export async function authorizeThrough(browser: Browser, url: string, opts: { identifier?: string; password?: string; consent?: "allow" | "deny" } = {}): Promise<TPage> {
  let page = await browser.open(url);
  if (page.status === 200 && page.url.includes("/login?")) {
    page = await browser.submit(page, { identifier: opts.identifier ?? IVANOV.sub, password: opts.password ?? IVANOV.password });
    if (page.status !== 303 && page.status !== 200) throw new Error(`sign-in refused: ${page.status} ${alertOf(page.text)}`);
  }
  if (page.status === 200 && page.url.includes("/consent?")) page = await browser.submit(page, { decision: opts.consent ?? "allow" });
  return page;
}

/** The query of the client redirect the browser was sent to. */
export function callbackParams(page: TPage): URLSearchParams {
  if (!page.location) throw new Error(`no redirect: ${page.status} ${page.url}\n${page.text.slice(0, 300)}`);
  return new URL(page.location).searchParams;
}

/** POST {ctx}/oauth/te as rp-web (Basic) or as the public rp-spa (client_id only). */
export function tokenAs(client: "web" | "spa", form: Record<string, string>, origin = base()): Promise<TResult> {
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  if (client === "web") headers.authorization = oauthBasic(WEB.id, WEB.secret);
  const body = new URLSearchParams(client === "spa" ? { ...form, client_id: SPA.id } : form).toString();
  return request("/oauth/te", { method: "POST", headers, body }, origin);
}

export function introspect(token: string, origin = base()): Promise<TResult> {
  const headers = { "content-type": "application/x-www-form-urlencoded", authorization: oauthBasic(WEB.id, WEB.secret) };
  return request("/oauth/introspect", { method: "POST", headers, body: new URLSearchParams({ token }).toString() }, origin);
}

/** A full sign-in through rp-web (of ivanov unless `as` names another account), exchanged for tokens. */
export async function webTokens(browser = new Browser(), extra: Record<string, string> = {}, as: { identifier?: string; password?: string } = {}) {
  const origin = browser.origin ?? base();
  const { url, verifier } = webAuthorization(extra, origin);
  const code = callbackParams(await authorizeThrough(browser, url, as)).get("code")!;
  const r = await tokenAs("web", { grant_type: "authorization_code", code, redirect_uri: WEB.redirectUri, code_verifier: verifier }, origin);
  if (r.status !== 200) throw new Error(`token request failed: ${r.status} ${r.text}`);
  return { browser, code, verifier, tokens: r.body as { access_token: string; id_token: string; refresh_token: string; scope: string; expires_in: number } };
}
