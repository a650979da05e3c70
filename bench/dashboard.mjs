// The console overview row of bench/run.mjs: the administrator signs in to the console as a browser
// without JavaScript would (next-auth's CSRF and sign-in, the service's login form, the callback),
// then reads console.dashboard.get one request at a time, as the page does, on the seeded accounts
// and the events the sign-in rows left. The goal: every answer under 300 ms at 100,000 accounts.
import { performance } from "node:perf_hooks";
import { appSessionCookie, Browser } from "./sign-in.mjs";

export const DASHBOARD_GOAL_MS = 300;
const ADMIN = { login: "admin", password: "bench-admin-password" };

/** `rounds` reads of the overview after one warm-up read; latencies in ms, and the last answer's account total. */
export async function dashboardRow(baseUrl, rounds = 20) {
  const cookie = await appSessionCookie(baseUrl, new Browser(1), "idp-console", "/console/dashboard", ADMIN.login, ADMIN.password);
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
