// The console overview row of bench/run.mjs: the administrator signs in to the console as a browser
// without JavaScript would (next-auth's CSRF and sign-in, the service's login form, the callback),
// then reads console.dashboard.get one request at a time, as the page does, on the seeded accounts
// and the events the sign-in rows left. The goal: every answer under 300 ms at 100,000 accounts.
// The users list row reads console.users.list the same way: the first page of every order in both
// directions, the second page of each, and pages of a search.
import { performance } from "node:perf_hooks";
import { appSessionCookie, Browser } from "./sign-in.mjs";

export const DASHBOARD_GOAL_MS = 300;
const ADMIN = { login: "admin", password: "bench-admin-password" };

/** A console session cookie for the bench's administrator, through the whole sign-in. */
const consoleCookie = (baseUrl) => appSessionCookie(baseUrl, new Browser(1), "idp-console", "/console/dashboard", ADMIN.login, ADMIN.password);

/** One query of the console's tRPC API; its time in ms and its data. */
async function consoleQuery(baseUrl, cookie, path, input) {
  const query = input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  const t0 = performance.now();
  const res = await fetch(`${baseUrl}/api/trpc/${path}${query}`, { headers: { cookie } });
  const body = await res.json();
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(body).slice(0, 200)}`);
  return { ms: performance.now() - t0, data: body.result.data.json ?? body.result.data };
}

const p50 = (sorted) => Math.round(sorted[Math.floor(sorted.length / 2)]);

/** `rounds` reads of the overview after one warm-up read; latencies in ms, and the last answer's account total. */
export async function dashboardRow(baseUrl, rounds = 20) {
  const cookie = await consoleCookie(baseUrl);
  const read = () => consoleQuery(baseUrl, cookie, "console.dashboard.get");
  await read();
  const runs = [];
  for (let i = 0; i < rounds; i++) runs.push(await read());
  const sorted = runs.map((r) => r.ms).sort((a, b) => a - b);
  const last = runs.at(-1).data;
  return {
    p50: p50(sorted),
    max: Math.round(sorted.at(-1)),
    rounds,
    accounts: last.accounts.total,
    signIns24h: last.signIns.hours.reduce((n, b) => n + b.signedIn + b.failed, 0),
  };
}

const USER_SORTS = ["sub", "login", "name", "email", "created", "status"];
// A common surname stem (thousands of matches), a rare one, and an e-mail fragment of the seeded accounts.
const USER_SEARCHES = ["иван", "шубин", "ivanov"];

/**
 * Pages of the console's users list, one request at a time as the page asks for them, after one
 * warm-up pass: per order (both directions) the first page and the one after it, and per search
 * the first page. Latencies in ms: p50 and max of the unsearched pages, and of the searched ones.
 */
export async function usersListRow(baseUrl, rounds = 5) {
  const cookie = await consoleCookie(baseUrl);
  const list = (input) => consoleQuery(baseUrl, cookie, "console.users.list", input);
  const pass = async () => {
    const plain = [];
    const searched = [];
    for (const sort of USER_SORTS) {
      for (const dir of ["asc", "desc"]) {
        const first = await list({ sort, dir });
        plain.push(first.ms);
        if (first.data.nextCursor) plain.push((await list({ sort, dir, after: first.data.nextCursor })).ms);
      }
    }
    for (const search of USER_SEARCHES) for (const sort of ["sub", "name"]) searched.push((await list({ search, sort })).ms);
    return { plain, searched };
  };
  await pass();
  const plain = [];
  const searched = [];
  for (let i = 0; i < rounds; i++) {
    const r = await pass();
    plain.push(...r.plain);
    searched.push(...r.searched);
  }
  plain.sort((a, b) => a - b);
  searched.sort((a, b) => a - b);
  return { plain: { p50: p50(plain), max: Math.round(plain.at(-1)), reads: plain.length }, searched: { p50: p50(searched), max: Math.round(searched.at(-1)), reads: searched.length } };
}
