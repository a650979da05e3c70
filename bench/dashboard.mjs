// The console overview row of bench/run.mjs: the administrator signs in to the console as a browser
// without JavaScript would (next-auth's CSRF and sign-in, the service's login form, the callback),
// then reads console.dashboard.get one request at a time, as the page does, on the seeded accounts
// and the events the sign-in rows left. The goal: every answer under 300 ms at 100,000 accounts.
import { performance } from "node:perf_hooks";
import { URLSearchParams } from "node:url";
import { Browser } from "./sign-in.mjs";

export const DASHBOARD_GOAL_MS = 300;
const ADMIN = { login: "admin", password: "bench-admin-password" };

const unescape = (s) => s.replace(/&amp;/g, "&").replace(/&quot;/g, '"').replace(/&#39;/g, "'");

/** Follows redirects by hand (the jar must see every Set-Cookie), up to the first 200. */
async function follow(browser, url) {
  let res = await browser.fetch(url);
  for (let i = 0; i < 10 && res.location; i++) {
    url = new URL(res.location, url).toString();
    res = await browser.fetch(url);
  }
  return { ...res, url };
}

/** A console session cookie for the bench's administrator, through the whole sign-in. */
async function consoleCookie(baseUrl) {
  const browser = new Browser(1);
  const { csrfToken } = JSON.parse((await browser.fetch(`${baseUrl}/api/auth/csrf/idp-console`)).text);
  const started = await browser.fetch(`${baseUrl}/api/auth/signin/idp-console`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, callbackUrl: `${baseUrl}/console/dashboard`, json: "true" }).toString(),
  });
  const login = await follow(browser, JSON.parse(started.text).url);
  const form = /<form method="post" action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/.exec(login.text);
  if (!form) throw new Error(`no sign-in form: ${login.status} ${login.url}`);
  const hidden = Object.fromEntries([...form[2].matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((h) => [h[1], unescape(h[2])]));
  const posted = await browser.fetch(new URL(unescape(form[1]), login.url).toString(), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ ...hidden, identifier: ADMIN.login, password: ADMIN.password }).toString(),
  });
  await follow(browser, new URL(posted.location, login.url).toString());
  const session = [...browser.cookies].find(([k]) => k.endsWith("idp-console.session-token"));
  if (!session) throw new Error("the console sign-in set no session cookie");
  return [...browser.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
}

/** `rounds` reads of the overview after one warm-up read; latencies in ms, and the last answer's account total. */
export async function dashboardRow(baseUrl, rounds = 20) {
  const cookie = await consoleCookie(baseUrl);
  const read = async () => {
    const t0 = performance.now();
    const res = await fetch(`${baseUrl}/api/trpc/console.dashboard.get`, { headers: { cookie } });
    const body = await res.json();
    if (res.status !== 200) throw new Error(`console.dashboard.get answered ${res.status}: ${JSON.stringify(body).slice(0, 200)}`);
    return { ms: performance.now() - t0, data: body.result.data.json ?? body.result.data };
  };
  await read();
  const runs = [];
  for (let i = 0; i < rounds; i++) runs.push(await read());
  const sorted = runs.map((r) => r.ms).sort((a, b) => a - b);
  const last = runs.at(-1).data;
  return {
    p50: Math.round(sorted[Math.floor(sorted.length / 2)]),
    max: Math.round(sorted.at(-1)),
    rounds,
    accounts: last.accounts.total,
    signIns24h: last.signIns.hours.reduce((n, b) => n + b.signedIn + b.failed, 0),
  };
}
