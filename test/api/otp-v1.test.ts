import { describe, expect, it } from "vitest";
import { createUser } from "../support/accounts.ts";
import { api, systemToken } from "../support/http.ts";
import { independentHotp } from "../support/independent-otp.ts";

// Devices come from the fixture's import section otpDevices: RFC 6030's sample (serial 987654321,
// 8 digits, counter 0) and a CSV (API-HW-1: the RFC 4226 seed, 6 digits, counter 0).
const BASIC: [string, string] = ["otp-app", "otp-rest-password"];
const HEX = Buffer.from("12345678901234567890").toString("hex");
const attach = (username: string, body: unknown, basic = BASIC) => api("PUT", `/rest/usr/${username}/attach/hotp`, { basic, body });
const codes = (counter: number, digits = 6) => {
  const [otp1, otp2, otp3] = independentHotp(HEX, counter, 3, { hex: true, digits });
  return { otp1, otp2, otp3 };
};

describe("PUT /rest/usr/{username}/attach/hotp (v1)", () => {
  it("binds a loaded generator on three consecutive codes computed by another implementation, deprecated in favour of v3", async () => {
    const { sub } = await createUser();
    const r = await attach(sub, { serial: "987654321", ...codes(12, 8) });
    expect(r.status).toBe(204);
    expect(r.headers.get("deprecation")).toBeTruthy();
    const list = await api("GET", `/api/v3/users/${sub}/totps`, { token: await systemToken("otp-app", "idp_api_sys_usec") });
    expect(list.body).toEqual([{ id: `hw-987654321_${sub}`, len: 8, name: "Hardware token 987654321" }]);
  });

  it("refuses codes that are not consecutive, unknown serials, a generator another account holds, and bad credentials", async () => {
    const { sub } = await createUser();
    const other = await createUser();
    const c = codes(3);
    const wrong = await attach(sub, { serial: "API-HW-1", otp1: c.otp1, otp2: c.otp3, otp3: c.otp2 });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ type: "process_error", error: "wrong_otp_code" });
    expect((await attach(sub, { serial: "NO-SUCH", ...c })).body).toMatchObject({ type: "process_error", error: "unknown_otp_device" });
    expect((await attach(sub, { serial: "API-HW-1", ...c })).status).toBe(204);
    expect((await attach(other.sub, { serial: "API-HW-1", ...codes(10) })).body).toMatchObject({ error: "otp_device_bound" });
    // The same account again: resynchronisation, far ahead.
    expect((await attach(sub, { serial: "API-HW-1", ...codes(500) })).status).toBe(204);
    expect((await attach("no-such-user-z", { serial: "API-HW-1", ...c })).status).toBe(404);
    expect((await attach(sub, { serial: "API-HW-1", ...c }, ["otp-app", "wrong"])).status).toBe(401);
    const bad = await attach(sub, { serial: "API-HW-1", otp1: 1, otp2: "2" });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { pos: string }) => e.pos).sort()).toEqual(["otp1", "otp3"]);
    const elsewhere = await api("PUT", `/rest/usr/${sub}/attach/totp`, { basic: BASIC, body: {} });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body).toMatchObject({ error: "not_found" });
  });
});
