import { describe, expect, it } from "vitest";
import { createUserWithPassword } from "../support/accounts.ts";
import { alertOf, Browser, uniqueIp, type TPage } from "../support/browser.ts";
import { sessionCookie, startAppSignIn, trpcCall } from "../support/console.ts";
import { api, base, systemToken } from "../support/http.ts";
import { authorizeThrough, callbackParams, tokenAs, WEB, webAuthorization } from "../support/oidc.ts";

// Backup codes of the second factor over HTTP: made in the portal when the person turns the factor
// on, typed on the sign-in's second step instead of the app's code, each one good for one sign-in,
// even when several browsers send it at the same moment.

const SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
const sys = (scope: string) => systemToken("otp-app", scope);
const audit = async (sub: string, type: string) =>
  (await api("GET", `/api/v3/users/${sub}/audit?type=${type}`, { token: await systemToken("users-app", "idp_api_sys_uaud") })).body.events as { params: Record<string, unknown> }[];

/** An account with an authenticator app bound, that turns the second factor on in the portal: the codes it is shown. */
async function accountWithBackupCodes(): Promise<{ sub: string; password: string; codes: string[] }> {
  const account = await createUserWithPassword();
  const bound = await api("POST", "/api/v3/users/totps/attach", {
    token: await sys("idp_api_otp_full_access"),
    body: { subjectId: account.sub, base32Secret: SECRET, len: 6, algo: "SHA1", period: 30 },
  });
  expect(bound.status).toBe(204);
  const browser = new Browser({ "x-forwarded-for": uniqueIp() });
  await authorizeThrough(browser, await startAppSignIn(browser, base(), "portal"), { identifier: account.sub, password: account.password });
  const on = await trpcCall(base(), sessionCookie(browser, "portal")!, "portal.otp.setSecondFactor", { on: true }, "mutation");
  expect(on.status).toBe(200);
  const codes = on.body.result!.data.backupCodes as string[];
  expect(codes).toHaveLength(10);
  return { ...account, codes };
}

const browserAt = () => new Browser({ "x-forwarded-for": uniqueIp(), "accept-language": "en" });

/** Through the password to the second step, asking for the backup-code form. */
async function atBackupStep(browser: Browser, account: { sub: string; password: string }) {
  const { url, verifier } = webAuthorization({ scope: "openid" });
  const form = await browser.open(url);
  const otp = await browser.submit(form, { identifier: account.sub, password: account.password });
  expect(otp.url).toContain("/login/otp?");
  expect(otp.text).toContain("Use a backup code");
  const backupUrl = /href="([^"]*backup=1[^"]*)"/.exec(otp.text)![1]!.replace(/&amp;/g, "&");
  const page = await browser.open(backupUrl);
  expect(page.status).toBe(200);
  expect(page.text).toContain("Backup code");
  expect(page.text).not.toContain('inputmode="numeric"');
  return { page, verifier };
}

/** Submits the code; a consent screen (rp-web is not first-party) is allowed on the way back. */
async function submitCode(browser: Browser, page: TPage, otp: string): Promise<TPage> {
  const next = await browser.submit(page, { otp });
  return next.status === 200 && next.url.includes("/consent?") ? browser.submit(next, { decision: "allow" }) : next;
}

describe("backup codes of the second factor", () => {
  it("sign in once each, as typed (case, spaces), and are refused the second time", async () => {
    const account = await accountWithBackupCodes();
    for (const c of account.codes) expect(c).toMatch(/^[0-9a-z]{4}(-[0-9a-z]{4}){3}$/);

    const browser = browserAt();
    const { page, verifier } = await atBackupStep(browser, account);
    const typed = account.codes[0]!.toUpperCase().replace(/-/g, " ");
    const done = await submitCode(browser, page, typed);
    expect(done.status).toBe(303);
    const tokens = await tokenAs("web", { grant_type: "authorization_code", code: callbackParams(done).get("code")!, redirect_uri: WEB.redirectUri, code_verifier: verifier });
    expect(tokens.status).toBe(200);
    const claims = JSON.parse(Buffer.from(tokens.body.id_token.split(".")[1], "base64url").toString());
    expect(claims).toMatchObject({ sub: account.sub, amr: ["pwd", "otp", "mfa"] });

    const again = browserAt();
    const second = await atBackupStep(again, account);
    const refused = await submitCode(again, second.page, account.codes[0]!);
    expect(refused.status).toBe(400);
    expect(alertOf(refused.text)).toContain("not an unused backup code");
    expect(again.cookies.has("idp_session")).toBe(false);
    // The backup form stays the backup form after a refusal, and a made-up code is refused alike.
    expect(refused.text).toContain("Backup code");
    expect((await submitCode(again, refused, "aaaa-bbbb-cccc-dddd")).status).toBe(400);

    expect((await audit(account.sub, "user.backup_code_used")).map((e) => e.params.left)).toEqual([9]);
    expect((await audit(account.sub, "user.sign_in_failed")).map((e) => e.params.reason)).toEqual(["bad_backup_code", "bad_backup_code"]);
  });

  it("let exactly one of 8 parallel sign-ins through with the same code", async () => {
    const account = await accountWithBackupCodes();
    const browsers = Array.from({ length: 8 }, browserAt);
    const pages = await Promise.all(browsers.map((b) => atBackupStep(b, account)));
    const answers = await Promise.all(browsers.map((b, i) => b.submit(pages[i]!.page, { otp: account.codes[3]! })));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s !== 400)).toHaveLength(1);
    expect(statuses.filter((s) => s === 400)).toHaveLength(7);
    expect((await audit(account.sub, "user.backup_code_used"))).toHaveLength(1);
  });
});
