import { describe, expect, it } from "vitest";
import { createUser } from "../support/accounts.ts";
import { api, systemToken } from "../support/http.ts";

const readToken = () => systemToken("otp-app", "idp_api_sys_usec");
const changeToken = () => systemToken("otp-app", "idp_api_sys_usec_chg");
const fullToken = () => systemToken("otp-app", "idp_api_otp_full_access");
const read = async (sub: string) => api("GET", `/api/v3/users/${sub}/auth`, { token: await readToken() });
const change = async (sub: string, body: unknown) => api("POST", `/api/v3/users/${sub}/auth`, { token: await changeToken(), body });
const bindHotp = async (sub: string) =>
  api("POST", "/api/v3/users/hotps/attach", { token: await fullToken(), body: { base32Secret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP", len: 6, algo: "SHA1", counter: 1, subjectId: sub } });

describe("GET|POST /api/v3/users/{subjectId}/auth", () => {
  it("reads all modes off for a new account, and changes each", async () => {
    const { sub } = await createUser();
    expect((await read(sub)).body).toEqual({ needPasswordChange: false, methodsLocked: [] });
    const r = await change(sub, { needPasswordChange: true, methodsLocked: ["password"] });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ needPasswordChange: true, methodsLocked: ["password"] });
    expect((await change(sub, { methodsLocked: [] })).body).toEqual({ needPasswordChange: true, methodsLocked: [] });
    expect((await read(sub)).body).toEqual({ needPasswordChange: true, methodsLocked: [] });
  });

  it("turns the second factor on only when a generator is bound; null turns it off", async () => {
    const { sub } = await createUser();
    const refused = await change(sub, { requiredFactor: 2 });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      type: "input_error", error: "wrong_values",
      errors: [{ type: "input_error", error: "has_not_sf_methods", pos: "requiredFactor", desc: expect.any(String), params: {} }],
    });
    expect((await read(sub)).body.requiredFactor).toBeUndefined();

    expect((await bindHotp(sub)).status).toBe(204);
    expect((await change(sub, { requiredFactor: 2 })).body).toEqual({ requiredFactor: 2, needPasswordChange: false, methodsLocked: [] });
    expect((await read(sub)).body.requiredFactor).toBe(2);

    // The last generator cannot go while the second factor is on: that would lock the user out.
    const kept = await api("DELETE", `/api/v3/users/${sub}/totps/hotp_${sub}`, { token: await changeToken() });
    expect(kept.status).toBe(400);
    expect(kept.body).toMatchObject({ type: "process_error", error: "last_sf_method" });

    expect((await change(sub, { requiredFactor: null })).body.requiredFactor).toBeUndefined();
    expect((await api("DELETE", `/api/v3/users/${sub}/totps/hotp_${sub}`, { token: await changeToken() })).status).toBe(204);
    const events = await api("GET", `/api/v3/users/${sub}/audit?type=user.auth_modes_changed`, { token: await systemToken("users-app", "idp_api_sys_uaud") });
    expect(events.body.events).toHaveLength(2);
  });

  it("refuses values the contract does not allow, changing nothing", async () => {
    const { sub } = await createUser();
    const cases: [unknown, string][] = [
      [{ requiredFactor: 3 }, "requiredFactor"],
      [{ requiredFactor: "2" }, "requiredFactor"],
      [{ needPasswordChange: false }, "needPasswordChange"],
      [{ methodsLocked: ["otp"] }, "methodsLocked.0"],
      [{ methodsLocked: "password" }, "methodsLocked"],
      [{ locked: true }, "locked"],
    ];
    for (const [body, pos] of cases) {
      const r = await change(sub, body);
      expect(r.status, pos).toBe(400);
      expect(r.body.errors[0], pos).toMatchObject({ type: "input_error", error: "wrong_value", pos });
    }
    expect((await read(sub)).body).toEqual({ needPasswordChange: false, methodsLocked: [] });
  });

  it("checks scopes and subjects", async () => {
    const { sub } = await createUser();
    expect((await api("POST", `/api/v3/users/${sub}/auth`, { token: await readToken(), body: {} })).status).toBe(401);
    expect((await api("GET", `/api/v3/users/${sub}/auth`, { token: await fullToken() })).status).toBe(401);
    expect((await read("no-such-user-y")).status).toBe(404);
  });
});
