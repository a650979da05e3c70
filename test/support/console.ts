import { createHmac } from "node:crypto";
import { encode } from "next-auth/jwt";
import { deriveKey } from "../../server/crypto/sealing.ts";
import { Browser, type TPage } from "./browser.ts";
import { authorizeThrough } from "./oidc.ts";

export type TApp = "console" | "portal";

export const APP_CLIENT: Record<TApp, string> = { console: "idp-console", portal: "idp-portal" };
const HOME: Record<TApp, string> = { console: "/console/dashboard", portal: "/account" };

/** The app's session cookie in the browser's jar, as a Cookie header (undefined: no session). */
export function sessionCookie(browser: Browser, app: TApp): string | undefined {
  const name = `${APP_CLIENT[app]}.session-token`;
  const value = browser.cookies.get(name);
  return value ? `${name}=${value}` : undefined;
}

/** Every cookie of the jar as one Cookie header. */
export function cookieHeader(browser: Browser): string {
  return [...browser.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
}

/**
 * What the app's "Sign in" button does (components/auth-client.ts): a CSRF token, then next-auth's
 * sign-in, which answers with the service's authorization URL and sets its state, PKCE and nonce cookies.
 */
export async function startAppSignIn(browser: Browser, baseUrl: string, app: TApp, params: Record<string, string> = {}): Promise<string> {
  const client = APP_CLIENT[app];
  const { csrfToken } = JSON.parse((await browser.fetch(`${baseUrl}/api/auth/csrf/${client}`)).text) as { csrfToken: string };
  const query = Object.keys(params).length ? `?${new URLSearchParams(params)}` : "";
  const started = await browser.fetch(`${baseUrl}/api/auth/signin/${client}${query}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, callbackUrl: `${baseUrl}${HOME[app]}`, json: "true" }).toString(),
  });
  const { url } = JSON.parse(started.text) as { url?: string };
  if (!url) throw new Error(`${app} sign-in did not start: ${started.status} ${started.text}`);
  return url;
}

/**
 * Signs in to console or portal the whole way, as a browser without JavaScript would after the button:
 * the service's sign-in page (skipped when the browser is signed in there already), the callback to
 * next-auth, and the page it lands on.
 */
export async function appSignIn(browser: Browser, baseUrl: string, app: TApp, identifier: string, password: string): Promise<TPage> {
  return authorizeThrough(browser, await startAppSignIn(browser, baseUrl, app), { identifier, password });
}

/** Signs in to the console of the server at `baseUrl`; returns the session cookie. */
export async function consoleSignIn(baseUrl: string, login: string, password: string): Promise<string> {
  const browser = new Browser({}, baseUrl);
  const landed = await appSignIn(browser, baseUrl, "console", login, password);
  const cookie = sessionCookie(browser, "console");
  if (!cookie) throw new Error(`console sign-in failed: ${landed.status} ${landed.url}`);
  return cookie;
}

/** server/auth/auth-options.ts: the app's key is an HMAC of its name under the derived "session" key. */
export function appSessionSecretOf(secretKey: string, app: TApp): string {
  return createHmac("sha256", deriveKey(secretKey, "session")).update(`next-auth:${app}`).digest("hex");
}

/**
 * A console session cookie made with the server's own key, as next-auth would after a sign-in of
 * `sub`: to show what the console does with a session whose holder it must not admit.
 */
export async function mintConsoleSession(secretKey: string, sub: string): Promise<string> {
  const token = await encode({ token: { sub, idTokenIat: Math.floor(Date.now() / 1000) }, secret: appSessionSecretOf(secretKey, "console"), maxAge: 3600 });
  return `idp-console.session-token=${token}`;
}

/** A tRPC call with the given cookies: GET for a query, POST for a mutation; status and body as they came. */
export async function trpcCall(baseUrl: string, cookie: string, procedure: string, input?: unknown, kind: "query" | "mutation" = "query") {
  const url = new URL(`${baseUrl}/api/trpc/${procedure}`);
  if (kind === "query" && input !== undefined) url.searchParams.set("input", JSON.stringify(input));
  const res = await fetch(url, {
    method: kind === "query" ? "GET" : "POST",
    headers: { "content-type": "application/json", cookie },
    body: kind === "mutation" ? JSON.stringify(input) : undefined,
  });
  return { status: res.status, body: (await res.json()) as { result?: { data: any }; error?: { message: string; data: { appCode?: string } } } };
}

/** Calls a console tRPC mutation with a session cookie; returns the procedure's answer. */
export async function consoleMutation(baseUrl: string, cookie: string, procedure: string, input: unknown): Promise<any> {
  const { status, body } = await trpcCall(baseUrl, cookie, procedure, input, "mutation");
  if (status !== 200 || !body.result) throw new Error(`${procedure} answered ${status}: ${JSON.stringify(body.error)}`);
  return body.result.data;
}
