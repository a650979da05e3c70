import { readFileSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { createUser, createUserWithPassword } from "../support/accounts.ts";
import { Browser, uniqueIp } from "../support/browser.ts";
import { api, systemToken } from "../support/http.ts";
import { independentTotp } from "../support/independent-otp.ts";
import { webTokens } from "../support/oidc.ts";

const readToken = () => systemToken("otp-app", "idp_api_sys_usec");
const changeToken = () => systemToken("otp-app", "idp_api_sys_usec_chg");
const fullToken = () => systemToken("otp-app", "idp_api_otp_full_access");
const codeToken = () => systemToken("users-app", "idp_api_sys_usec_chg");
const SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const list = async (sub: string) => api("GET", `/api/v3/users/${sub}/totps`, { token: await readToken() });
const qr = async (sub: string, token?: string) => api("GET", `/api/v3/users/${sub}/totps/attach/qr`, { token: token ?? (await changeToken()) });
const finish = async (sub: string, body: unknown, opts: { token?: string; id?: string } = {}) =>
  api("POST", `/api/v3/users/${sub}/totps/${opts.id ?? "attach/qr"}`, { token: opts.token ?? (await changeToken()), body });
const userHeaders = { "x-forwarded-for": "203.0.113.7", "user-agent": "otp-test/1.0" };

async function userToken(scope = "idp_api_usec idp_api_usec_chg"): Promise<{ sub: string; token: string }> {
  const account = await createUserWithPassword();
  const browser = new Browser({ "x-forwarded-for": uniqueIp() });
  const { tokens } = await webTokens(browser, { scope: `openid ${scope}` }, { identifier: account.sub, password: account.password });
  return { sub: account.sub, token: tokens.access_token };
}

describe("TOTP QR flow (GET|POST /api/v3/users/{subjectId}/totps/attach/qr)", () => {
  it("hands out a PNG QR code of the otpauth URI and binds the secret with a code another implementation computes", async () => {
    const { sub } = await createUser();
    expect((await list(sub)).status).toBe(404);
    const r = await qr(sub);
    expect(r.status).toBe(200);
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(Object.keys(r.body).sort()).toEqual(["base32Secret", "base64QRCode"]);
    expect(r.body.base32Secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(Buffer.from(r.body.base64QRCode, "base64").subarray(0, 8)).toEqual(PNG);

    const wrong = await finish(sub, { base32Secret: r.body.base32Secret, otpCode: independentTotp(r.body.base32Secret, { at: new Date(Date.now() - 600_000) }) });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ type: "process_error", error: "wrong_otp_code" });

    expect((await finish(sub, { base32Secret: r.body.base32Secret, otpCode: independentTotp(r.body.base32Secret), name: "My phone" })).status).toBe(204);
    const bound = await list(sub);
    expect(bound.status).toBe(200);
    expect(bound.body).toEqual([{ id: `totp_${sub}`, len: 6, name: "My phone" }]);
    expect(JSON.stringify(bound.body)).not.toContain(r.body.base32Secret);
    expect(readFileSync(inject("serverLog"), "utf8")).not.toContain(r.body.base32Secret);
  });

  it("refuses a secret it did not hand out for this user, and binds a handed-out one once under parallel requests", async () => {
    const { sub } = await createUser();
    const other = await createUser();
    const { body } = await qr(sub);
    const code = independentTotp(body.base32Secret);
    const foreign = await finish(other.sub, { base32Secret: body.base32Secret, otpCode: code });
    expect(foreign.status).toBe(400);
    expect(foreign.body).toMatchObject({ type: "process_error", error: "unknown_otp_secret" });
    const made = await finish(sub, { base32Secret: SECRET, otpCode: independentTotp(SECRET) });
    expect(made.body.error).toBe("unknown_otp_secret");

    const results = await Promise.all(Array.from({ length: 6 }, () => finish(sub, { base32Secret: body.base32Secret, otpCode: code })));
    expect(results.map((x) => x.status).sort()).toEqual([204, 400, 400, 400, 400, 400]);
    expect(results.filter((x) => x.status === 400).every((x) => x.body.error === "unknown_otp_secret")).toBe(true);
    expect((await list(other.sub)).status).toBe(404);
  });

  it("takes the binding id in the last segment, and a second prefix binds a second generator", async () => {
    const { sub } = await createUser();
    for (const id of [`totp_${sub}`, `backup_${sub}`]) {
      const { body } = await qr(sub);
      expect((await finish(sub, { base32Secret: body.base32Secret, otpCode: independentTotp(body.base32Secret) }, { id })).status).toBe(204);
    }
    expect((await list(sub)).body.map((b: { id: string }) => b.id)).toEqual([`totp_${sub}`, `backup_${sub}`]);
    const { body } = await qr(sub);
    const bad = await finish(sub, { base32Secret: body.base32Secret, otpCode: independentTotp(body.base32Secret) }, { id: `totp_someone-else` });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ error: "wrong_value", pos: "id" });
  });

  it("works in user mode for the token's own account only, with the user's address in the event", async () => {
    const me = await userToken();
    const other = await createUser();
    const r = await api("GET", "/api/v3/users/current/totps/attach/qr", { token: me.token, headers: userHeaders });
    expect(r.status).toBe(200);
    const done = await api("POST", "/api/v3/users/current/totps/attach/qr", { token: me.token, headers: userHeaders, body: { base32Secret: r.body.base32Secret, otpCode: independentTotp(r.body.base32Secret) } });
    expect(done.status).toBe(204);
    expect((await api("GET", `/api/v3/users/${me.sub}/totps`, { token: me.token })).body).toEqual([{ id: `totp_${me.sub}`, len: 6, name: "Mobile App (TOTP)" }]);
    expect((await api("GET", `/api/v3/users/${other.sub}/totps/attach/qr`, { token: me.token })).body).toMatchObject({ error: "bad_access_token", desc: expect.stringMatching(/^wrong_subject/) });
    const events = await api("GET", `/api/v3/users/${me.sub}/audit?type=user.otp_bound`, { token: await systemToken("users-app", "idp_api_sys_uaud") });
    expect(events.body.events[0]).toMatchObject({ ip: "203.0.113.7", userAgent: "otp-test/1.0" });
    expect(JSON.stringify(events.body)).not.toContain(r.body.base32Secret);
  });

  it("checks scopes", async () => {
    const { sub } = await createUser();
    expect((await qr(sub, await readToken())).status).toBe(401);
    expect((await api("GET", `/api/v3/users/${sub}/totps`, { token: await changeToken() })).status).toBe(401);
    expect((await api("GET", `/api/v3/users/${sub}/totps`)).status).toBe(401);
  });
});

describe("POST /api/v3/users/totps/attach and /hotps/attach", () => {
  const totp = { base32Secret: SECRET, len: 8, algo: "SHA256", period: 60 };

  it("binds with a code another implementation computes (usec_chg), or without one only with idp_api_otp_full_access", async () => {
    const { sub } = await createUser();
    const noCode = await api("POST", "/api/v3/users/totps/attach", { token: await codeToken(), body: { ...totp, subjectId: sub } });
    expect(noCode.status).toBe(401);
    expect(noCode.body).toMatchObject({ type: "security_error", error: "bad_access_token" });
    expect((await list(sub)).status).toBe(404);

    const wrong = await api("POST", "/api/v3/users/totps/attach", { token: await codeToken(), body: { ...totp, subjectId: sub, otpCode: "12345678" } });
    expect(wrong.body).toMatchObject({ type: "process_error", error: "wrong_otp_code" });
    const otpCode = independentTotp(SECRET, { algo: "SHA256", digits: 8, period: 60 });
    expect((await api("POST", "/api/v3/users/totps/attach", { token: await codeToken(), body: { ...totp, subjectId: sub, otpCode } })).status).toBe(204);
    expect((await list(sub)).body).toEqual([{ id: `totp_${sub}`, len: 8, name: "Mobile App (TOTP)" }]);

    const other = await createUser();
    expect((await api("POST", "/api/v3/users/totps/attach", { token: await fullToken(), body: { ...totp, subjectId: other.sub, name: "Issued" } })).status).toBe(204);
    expect((await list(other.sub)).body).toEqual([{ id: `totp_${other.sub}`, len: 8, name: "Issued" }]);
  });

  it("binds an HOTP generator (idp_api_otp_full_access only)", async () => {
    const { sub } = await createUser();
    const body = { base32Secret: SECRET, len: 6, algo: "SHA1", counter: 5, subjectId: sub };
    expect((await api("POST", "/api/v3/users/hotps/attach", { token: await codeToken(), body })).status).toBe(401);
    expect((await api("POST", "/api/v3/users/hotps/attach", { token: await fullToken(), body })).status).toBe(204);
    expect((await list(sub)).body).toEqual([{ id: `hotp_${sub}`, len: 6, name: "Mobile App (HOTP)" }]);
  });

  it("validates len, algo, period, counter and the secret with the contract's input_error body", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...totp, len: 3 }, "len"],
      [{ ...totp, len: 17 }, "len"],
      [{ ...totp, len: "6" }, "len"],
      [{ ...totp, algo: "MD5" }, "algo"],
      [{ ...totp, period: 29 }, "period"],
      [{ ...totp, period: 301 }, "period"],
      [{ ...totp, base32Secret: "not base32!" }, "base32Secret"],
      [{ ...totp, base32Secret: "JBSWY3DP" }, "base32Secret"],
      [{ ...totp, extra: 1 }, "extra"],
    ];
    for (const [body, pos] of cases) {
      const r = await api("POST", "/api/v3/users/totps/attach", { token: await fullToken(), body: { ...body, subjectId: "nobody" } });
      expect(r.status, pos).toBe(400);
      expect(r.body, pos).toEqual({ type: "input_error", error: "wrong_values", errors: [{ type: "input_error", error: "wrong_value", desc: expect.any(String), pos, params: {} }] });
    }
    for (const counter of [0, -1, 1.5]) {
      const r = await api("POST", "/api/v3/users/hotps/attach", { token: await fullToken(), body: { base32Secret: SECRET, len: 6, algo: "SHA1", counter } });
      expect(r.body.errors[0].pos).toBe("counter");
    }
    const noSubject = await api("POST", "/api/v3/users/hotps/attach", { token: await fullToken(), body: { base32Secret: SECRET, len: 6, algo: "SHA1", counter: 1 } });
    expect(noSubject.body.errors[0].pos).toBe("subjectId");
    const unknown = await api("POST", "/api/v3/users/hotps/attach", { token: await fullToken(), body: { base32Secret: SECRET, len: 6, algo: "SHA1", counter: 1, subjectId: "no-such-user-x" } });
    expect(unknown.status).toBe(404);
  });
});

describe("DELETE /api/v3/users/{subjectId}/totps/{id}", () => {
  it("removes a generator; 404 for one the account does not have", async () => {
    const { sub } = await createUser();
    await api("POST", "/api/v3/users/hotps/attach", { token: await fullToken(), body: { base32Secret: SECRET, len: 6, algo: "SHA1", counter: 1, subjectId: sub } });
    const other = await createUser();
    expect((await api("DELETE", `/api/v3/users/${other.sub}/totps/hotp_${sub}`, { token: await changeToken() })).status).toBe(404);
    expect((await api("DELETE", `/api/v3/users/${sub}/totps/hotp_${sub}`, { token: await changeToken() })).status).toBe(204);
    expect((await list(sub)).status).toBe(404);
    expect((await api("DELETE", `/api/v3/users/${sub}/totps/hotp_${sub}`, { token: await changeToken() })).body).toMatchObject({ error: "unknown_otp_generator" });
  });
});
