// Sign-in rows of bench/run.mjs: password sign-ins per second through the login form (as a browser
// without JavaScript does it), raw argon2id verifications per second of the same hash in this
// process, and the server's memory under a burst of parallel sign-ins.
import argon2 from "argon2";
import { createHash, randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import { clearInterval, setInterval } from "node:timers";
import { URLSearchParams } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { rssMb } from "./load.mjs";

export const SIGN_IN_CLIENT = "bench-rp";
const REDIRECT_URI = "http://127.0.0.1:9/cb";
export const USER_PASSWORD = "bench-user-password";

/**
 * The import entries sign-ins need: a public first-party client (no consent screen) and `count`
 * accounts sharing one password hash made here with the server's parameters (OWASP's argon2id
 * baseline), so the server verifies exactly what `argon2Ceiling` verifies and never rehashes.
 */
export async function signInFixtures(count) {
  const passwordHash = await argon2.hash(USER_PASSWORD, { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 });
  const client = {
    id: SIGN_IN_CLIENT,
    name: "Benchmark relying party",
    type: "public",
    firstParty: true,
    scopes: [],
    grantTypes: ["authorization_code"],
    redirectUris: [REDIRECT_URI],
  };
  const users = Array.from({ length: count }, (_, i) => ({ sub: `bench-user-${i}`, attributes: {}, passwordHash }));
  return { client, users, passwordHash };
}

/**
 * A cookie jar and fetch without redirects: one browser, at its own address. People sign in from
 * many addresses; from one, no more than 20 attempts are checked at a time (the per-address counter
 * of server/sign-in/throttle-policy.ts). Without IDP_TRUSTED_PROXIES the server takes the address
 * from X-Forwarded-For as sent.
 */
export class Browser {
  cookies = new Map();

  constructor(n) {
    this.address = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
  }

  async fetch(url, init = {}) {
    const headers = { "x-forwarded-for": this.address, ...init.headers };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const res = await fetch(url, { ...init, headers, redirect: "manual" });
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(";")[0];
      const eq = pair.indexOf("=");
      this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    return { status: res.status, text: await res.text(), location: res.headers.get("location") };
  }
}

const unescape = (s) => s.replace(/&amp;/g, "&").replace(/&quot;/g, '"').replace(/&#39;/g, "'");

/** The page's form with a password field: its action and hidden fields. */
function passwordForm(html) {
  for (const m of html.matchAll(/<form method="post" action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g)) {
    if (!m[2].includes('name="password"')) continue;
    const hidden = Object.fromEntries([...m[2].matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((h) => [h[1], unescape(h[2])]));
    return { action: unescape(m[1]), hidden };
  }
  throw new Error(`no password form on the page:\n${html.slice(0, 400)}`);
}

/**
 * The start of every sign-in as a browser makes it: the authorization request (prompt=login, so a
 * browser that already has a session still signs in) and the sign-in page it is sent to. Returns the
 * page's URL and HTML, and the PKCE verifier.
 */
export async function openSignInPage(baseUrl, browser, onStep = () => undefined) {
  const verifier = randomBytes(32).toString("base64url");
  const query = new URLSearchParams({
    response_type: "code",
    client_id: SIGN_IN_CLIENT,
    redirect_uri: REDIRECT_URI,
    scope: "openid",
    state: "s",
    prompt: "login",
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
  });
  onStep("authorization request");
  const ae = await browser.fetch(`${baseUrl}/oauth/ae?${query}`);
  if (ae.status !== 303 && ae.status !== 302) throw new Error(`authorization request answered ${ae.status}`);
  const loginUrl = new URL(ae.location, baseUrl).toString();
  onStep("login form");
  const page = await browser.fetch(loginUrl);
  if (page.status !== 200) throw new Error(`login page answered ${page.status}`);
  return { loginUrl, html: page.text, verifier };
}

/**
 * The code of a completed sign-in: the last answer must be the redirect back to the client with a
 * code. Anything else (the form again with its alert, an error page) is a refusal, and throws.
 */
export function codeOfRedirect(done, how) {
  const code = done.location?.startsWith(REDIRECT_URI) ? new URL(done.location).searchParams.get("code") : null;
  if (!code) throw new Error(`${how} sign-in refused: ${done.status} ${done.location ?? ""} ${/role="alert"[^>]*>([^<]*)</.exec(done.text)?.[1] ?? ""}`);
  return code;
}

/** A form-encoded POST of `fields` to `action` (relative to the page at `pageUrl`). */
export const postForm = (browser, action, pageUrl, fields) =>
  browser.fetch(new URL(action, pageUrl).toString(), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() });

/**
 * One password sign-in as a browser without JavaScript makes it: the authorization request, the
 * form, the POST; ends with the redirect back to the client carrying a code. Returns the code and the
 * PKCE verifier. `onStep` is told the name of each request before it is sent, and nothing once the
 * last has been answered.
 */
export async function signInOnce(baseUrl, browser, sub, onStep = () => undefined) {
  const { loginUrl, html, verifier } = await openSignInPage(baseUrl, browser, onStep);
  const form = passwordForm(html);
  onStep("password submitted");
  const done = await postForm(browser, form.action, loginUrl, { ...form.hidden, identifier: sub, password: USER_PASSWORD });
  onStep();
  return { code: codeOfRedirect(done, "password"), verifier };
}

/** Follows redirects by hand (the jar must see every Set-Cookie), up to the first answer that is not one. */
async function follow(browser, url) {
  let res = await browser.fetch(url);
  for (let i = 0; i < 10 && res.location; i++) {
    url = new URL(res.location, url).toString();
    res = await browser.fetch(url);
  }
  return { ...res, url };
}

/**
 * Signs `browser` in to the console or the portal (next-auth client `app`, e.g. "idp-console") the
 * whole way, as a browser without JavaScript would: next-auth's CSRF and sign-in, the service's
 * login form, the callback. Returns the browser's cookies as one Cookie header.
 */
export async function appSessionCookie(baseUrl, browser, app, home, identifier, password) {
  const { csrfToken } = JSON.parse((await browser.fetch(`${baseUrl}/api/auth/csrf/${app}`)).text);
  const started = await browser.fetch(`${baseUrl}/api/auth/signin/${app}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, callbackUrl: `${baseUrl}${home}`, json: "true" }).toString(),
  });
  const login = await follow(browser, JSON.parse(started.text).url);
  const form = passwordForm(login.text);
  const posted = await postForm(browser, form.action, login.url, { ...form.hidden, identifier, password });
  if (!posted.location) throw new Error(`${app} sign-in of ${identifier} refused: ${posted.status}`);
  await follow(browser, new URL(posted.location, login.url).toString());
  if (![...browser.cookies.keys()].some((k) => k.endsWith(`${app}.session-token`))) throw new Error(`the ${app} sign-in set no session cookie`);
  return [...browser.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
}

/** A user access token through a sign-in and the code exchange (public client, PKCE). */
export async function userAccessToken(baseUrl, sub) {
  return (await exchangeCode(baseUrl, await signInOnce(baseUrl, new Browser(0), sub))).access_token;
}

/** The token response to a sign-in's code (public client, PKCE). */
export async function exchangeCode(baseUrl, { code, verifier }) {
  const res = await fetch(`${baseUrl}/oauth/te`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, client_id: SIGN_IN_CLIENT, code_verifier: verifier }),
  });
  if (res.status !== 200) throw new Error(`code exchange answered ${res.status}: ${await res.text()}`);
  return res.json();
}

const percentile = (sorted, p) => (sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]) : 0);

function stats(name, latencies, failed, seconds) {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { name, rps: Math.round((latencies.length / seconds) * 10) / 10, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), requests: latencies.length, failed };
}

/**
 * `workers` browsers, each signing one account of its own in again and again for `seconds`
 * (own accounts, so no two sign-ins wait on one account's counter). Counts complete sign-ins: a
 * sign-in that does not end in the redirect with a code counts as failed. `signIn(browser, i)` is one
 * sign-in of the i-th account (a password sign-in through the form unless given).
 */
export async function signInLoad(baseUrl, { workers, seconds, name = "password sign-ins through the login form", signIn = (browser, i) => signInOnce(baseUrl, browser, `bench-user-${i}`) }) {
  const latencies = [];
  let failed = 0;
  let firstError;
  const deadline = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: workers }, async (_, i) => {
      const browser = new Browser(i + 1);
      while (performance.now() < deadline) {
        const t0 = performance.now();
        try {
          await signIn(browser, i);
          latencies.push(performance.now() - t0);
        } catch (e) {
          failed += 1;
          firstError ??= e;
        }
      }
    }),
  );
  if (firstError) console.log(`first sign-in failure: ${firstError.message}`);
  return stats(`${name} (${workers} browsers)`, latencies, failed, seconds);
}

/**
 * `count` browsers signing in at the same moment (each its own account), while the server's resident
 * memory is sampled every 50 ms: what a burst costs and whether it stays bounded.
 */
export async function signInBurst(baseUrl, pid, count) {
  const before = rssMb(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 50);
  const t0 = performance.now();
  const latencies = [];
  let failed = 0;
  let firstError;
  await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const s = performance.now();
      try {
        await signInOnce(baseUrl, new Browser(1000 + i), `bench-user-${i}`);
        latencies.push(performance.now() - s);
      } catch (e) {
        failed += 1;
        firstError ??= e;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  if (firstError) console.log(`first burst failure: ${firstError.message}`);
  await sleep(3_000);
  return { ...stats(`burst of ${count} parallel sign-ins`, latencies, failed, seconds), seconds: Math.round(seconds * 10) / 10, rss: { before, peak, after: rssMb(pid) } };
}

/**
 * Raw argon2id verifications of `hash` per second in this process, with as many at once as libuv
 * has threads (UV_THREADPOOL_SIZE, default 4): the ceiling a sign-in through the server can approach.
 */
export async function argon2Ceiling(hash, seconds) {
  const parallel = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
  let done = 0;
  const deadline = performance.now() + seconds * 1000;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (performance.now() < deadline) {
        if (!(await argon2.verify(hash, USER_PASSWORD))) throw new Error("argon2 verify failed");
        done += 1;
      }
    }),
  );
  return Math.round((done / ((performance.now() - t0) / 1000)) * 10) / 10;
}
