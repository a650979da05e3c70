import { describe, expect, inject, it } from "vitest";
import { appSignIn } from "../support/console.ts";
import { Browser, uniqueIp } from "../support/browser.ts";
import { fixtureClient, oauthBasic } from "../support/fixtures.ts";
import { api, request, type TResult } from "../support/http.ts";
import { serverOfItsOwn } from "../support/own-server.ts";

// Failed client authentication at /oauth/te, /oauth/introspect and /oauth/revoke is limited per
// (client id, address) (10 per window) and per address (30 per window), never per client id alone. The suite's server runs with a 3 s
// window (IDP_CLIENT_AUTH_WINDOW in global-setup.ts), so waiting one out is short. limits-app is a
// fixture client no other test uses; each test comes from addresses of its own (X-Forwarded-For).

const LIMITS = fixtureClient("limits-app");
const PER_CLIENT = 10;
const PER_IP = 30;

function post(path: string, form: Record<string, string>, ip: string, basic?: [string, string]): Promise<TResult> {
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": ip };
  if (basic) headers.authorization = oauthBasic(...basic);
  return request(path, { method: "POST", headers, body: new URLSearchParams(form).toString() });
}

const grant = (ip: string, secret: string, id = LIMITS.id) => post("/oauth/te", { grant_type: "client_credentials", scope: "idp_api_sys_users" }, ip, [id, secret]);

function expectThrottled(r: TResult): number {
  expect(r.status).toBe(429);
  expect(r.body).toEqual({ error: "invalid_client", error_description: expect.stringMatching(/too many failed client authentications/) });
  const wait = Number(r.headers.get("retry-after"));
  expect(wait).toBeGreaterThanOrEqual(1);
  expect(wait).toBeLessThanOrEqual(3);
  return wait;
}

const sleep = (s: number) => new Promise((r) => setTimeout(r, s * 1000 + 100));

describe("failed client authentication is limited", () => {
  it("does not limit right secrets: a burst of them, the first ones checked together, is answered", async () => {
    const ip = uniqueIp();
    const results = await Promise.all(Array.from({ length: 3 * PER_CLIENT }, () => grant(ip, LIMITS.secret)));
    expect(results.map((r) => r.status)).toEqual(Array(3 * PER_CLIENT).fill(200));
  });

  it("per client id and address: of parallel wrong secrets at most the limit are judged; that address then gets 429 until the window passes, the owner elsewhere does not", async () => {
    const ip = uniqueIp();
    const burst = await Promise.all(Array.from({ length: 2 * PER_CLIENT + 5 }, (_, i) => grant(ip, `wrong-secret-${i}`)));
    const judged = burst.filter((r) => r.status === 401);
    const refused = burst.filter((r) => r.status === 429);
    expect(judged.length + refused.length).toBe(burst.length);
    expect(judged.length).toBeLessThanOrEqual(PER_CLIENT);
    expect(refused.length).toBeGreaterThanOrEqual(burst.length - PER_CLIENT);
    for (const r of judged) expect(r.body.error).toBe("invalid_client");
    refused.forEach(expectThrottled);

    // No oracle for the guesser: from its address the right secret is refused like any other, at every endpoint.
    const wait = expectThrottled(await grant(ip, LIMITS.secret));
    expectThrottled(await post("/oauth/introspect", { token: "x" }, ip, [LIMITS.id, LIMITS.secret]));
    expectThrottled(await post("/oauth/revoke", { token: "x" }, ip, [LIMITS.id, LIMITS.secret]));
    expectThrottled(await post("/oauth/te", { grant_type: "client_credentials", scope: "idp_api_sys_users", client_id: LIMITS.id, client_secret: LIMITS.secret }, ip));
    // The owner, at its own address, is not locked out by a stranger's guesses under its id.
    const owner = uniqueIp();
    expect((await grant(owner, LIMITS.secret)).status).toBe(200);
    expect((await post("/oauth/te", { grant_type: "client_credentials", scope: "idp_api_sys_users", client_id: LIMITS.id, client_secret: LIMITS.secret }, owner)).status).toBe(200);
    // Another client is not affected at the guesser's address either.
    expect((await grant(ip, fixtureClient("post-app").secret, "post-app")).status).toBe(200);

    await sleep(wait);
    expect((await grant(ip, LIMITS.secret)).status).toBe(200);
  });

  it("a stranger cannot lock the console out: wrong secrets under its built-in client's id leave the administrator's sign-in working", async () => {
    const ip = uniqueIp();
    const burst = await Promise.all(Array.from({ length: 3 * PER_CLIENT }, (_, i) => post("/oauth/te", { grant_type: "authorization_code", code: "x", redirect_uri: "x" }, ip, ["idp-console", `guess-${i}`])));
    expect(burst.some((r) => r.status === 429)).toBe(true);
    const browser = new Browser();
    const landed = await appSignIn(browser, inject("baseUrl"), "console", "admin", inject("adminPassword"));
    expect(landed.url).toBe(`${inject("baseUrl")}/console/dashboard`);
  });

  it("per address: failures under many client ids lock the address out, a right secret of another client too", async () => {
    const ip = uniqueIp();
    const unknown = await Promise.all(Array.from({ length: PER_IP }, (_, i) => post("/oauth/te", { grant_type: "client_credentials", client_id: `nobody-${i}`, client_secret: "guess" }, ip)));
    expect(unknown.map((r) => r.status)).toEqual(Array(PER_IP).fill(401));
    const post_ = fixtureClient("post-app");
    const wait = expectThrottled(await grant(ip, post_.secret, post_.id));
    expectThrottled(await post("/oauth/revoke", { token: "x", client_id: "rp-spa" }, ip));
    expect((await grant(uniqueIp(), post_.secret, post_.id)).status).toBe(200);
    await sleep(wait);
    expect((await grant(ip, post_.secret, post_.id)).status).toBe(200);
  });
});

describe("failed REST-password authentication (v1/v2 HTTP Basic) is limited", () => {
  const REST_PASSWORD = "limits-app-rest-password";
  const v1Read = (ip: string, password: string) =>
    api("GET", "/api/v1/users/bm9ib2R5.AAAAAAAAAAAAAAAA", { basic: [LIMITS.id, password], headers: { "x-forwarded-for": ip } });

  it("per client id and address, counted apart from the OAuth secret: wrong passwords lock that address out of the REST password, the owner elsewhere and the OAuth secret not", async () => {
    const ip = uniqueIp();
    // A known account-less id: a right password gets the read's own 404, a wrong one 401.
    expect((await v1Read(ip, REST_PASSWORD)).status).toBe(404);
    const burst = await Promise.all(Array.from({ length: 2 * PER_CLIENT + 5 }, (_, i) => v1Read(ip, `wrong-password-${i}`)));
    const judged = burst.filter((r) => r.status === 401);
    const refused = burst.filter((r) => r.status === 429);
    expect(judged.length + refused.length).toBe(burst.length);
    expect(judged.length).toBeLessThanOrEqual(PER_CLIENT);
    expect(refused.length).toBeGreaterThanOrEqual(burst.length - PER_CLIENT);

    const locked = await v1Read(ip, REST_PASSWORD);
    expect(locked.status).toBe(429);
    expect(JSON.stringify(locked.body)).toMatch(/too many failed client authentications/);
    const wait = Number(locked.headers.get("retry-after"));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(3);
    expect((await v1Read(uniqueIp(), REST_PASSWORD)).status).toBe(404);
    // The OAuth secret of the same client has a counter of its own.
    expect((await grant(ip, LIMITS.secret)).status).toBe(200);

    await sleep(wait);
    expect((await v1Read(ip, REST_PASSWORD)).status).toBe(404);
  });

  it("per address: unknown client ids from one address lock that address out of HTTP Basic and of /oauth/te", async () => {
    const ip = uniqueIp();
    const unknown = await Promise.all(Array.from({ length: PER_IP }, (_, i) => api("GET", "/api/v1/users/bm9ib2R5.AAAAAAAAAAAAAAAA", { basic: [`nobody-${i}`, "guess"], headers: { "x-forwarded-for": ip } })));
    expect(unknown.map((r) => r.status)).toEqual(Array(PER_IP).fill(401));
    expect((await v1Read(ip, REST_PASSWORD)).status).toBe(429);
    expectThrottled(await grant(ip, LIMITS.secret));
    expect((await v1Read(uniqueIp(), REST_PASSWORD)).status).toBe(404);
  });
});

describe("guessing one client's secret from many addresses", () => {
  // A server of its own: two failures per (id, address), so twenty per id, in a window long enough
  // for the whole test.
  const own = serverOfItsOwn("guess", { IDP_CLIENT_AUTH_FAILURES: "2", IDP_CLIENT_AUTH_WINDOW: "120" });

  it("checks at most ten times the per-address limit per id and window, while the owner's known secret keeps working", async () => {
    const at = (ip: string, secret: string) =>
      request("/oauth/te", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": ip, authorization: oauthBasic(LIMITS.id, secret) }, body: "grant_type=client_credentials&scope=idp_api_sys_users" }, own().baseUrl);
    // The owner authenticates before the attack: its secret is known to be right from then on.
    expect((await at(uniqueIp(), LIMITS.secret)).status).toBe(200);
    const statuses: number[] = [];
    for (let a = 0; a < 12; a++) {
      const ip = uniqueIp();
      for (let i = 0; i < 2; i++) statuses.push((await at(ip, `guess-${a}-${i}`)).status);
    }
    // Twenty guesses were checked (2 per address × 10 addresses); the rest were refused unchecked.
    expect(statuses.filter((s) => s === 401)).toHaveLength(20);
    expect(statuses.slice(20).every((s) => s === 429)).toBe(true);
    // A new address cannot have a guess checked either; the owner's secret still answers.
    expect((await at(uniqueIp(), "one-more-guess")).status).toBe(429);
    expect((await at(uniqueIp(), LIMITS.secret)).status).toBe(200);
  });
});
