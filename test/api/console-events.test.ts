import { beforeAll, describe, expect, inject, it } from "vitest";
import { createUserWithPassword } from "../support/accounts.ts";
import { Browser, uniqueIp } from "../support/browser.ts";
import { consoleSignIn } from "../support/console.ts";
import { parseCsv } from "../support/csv.ts";
import { base, request } from "../support/http.ts";
import { webAuthorization } from "../support/oidc.ts";

// A User-Agent a spreadsheet would run as a formula, were it written as it came.
const FORMULA_UA = "=cmd|' /C calc'!A0, \"quoted\"";
const exportOf = (query: string, cookie?: string) => request(`/console/events/export?${query}`, { headers: cookie ? { cookie } : {} });

describe("GET /console/events/export", () => {
  let cookie: string;
  let sub: string;
  let ip: string;

  beforeAll(async () => {
    cookie = await consoleSignIn(base(), "admin", inject("adminPassword"));
    const account = await createUserWithPassword();
    sub = account.sub;
    ip = uniqueIp();
    const browser = new Browser({ "user-agent": FORMULA_UA, "x-forwarded-for": ip });
    const login = await browser.open(webAuthorization().url);
    const refused = await browser.submit(login, { identifier: sub, password: "not the password" });
    expect(refused.status).toBe(400);
  });

  it("refuses a request without an administrator's console session, in the v3 error shape", async () => {
    const r = await exportOf(`sub=${sub}`);
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ type: "security_error", error: "unauthorized", desc: "sign in to the console as an administrator" });
    expect(r.text).not.toContain(sub);
  });

  it("streams the filtered events as a CSV download, a formula in a field turned into text", async () => {
    const r = await exportOf(`sub=${encodeURIComponent(sub)}&type=user.sign_in_failed`, cookie);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/csv; charset=utf-8; header=present");
    expect(r.headers.get("content-disposition")).toMatch(/^attachment; filename="security-events-\d{8}-\d{6}\.csv"$/);
    expect(r.headers.get("cache-control")).toBe("no-store");
    const [header, ...rows] = parseCsv(r.text);
    expect(header).toEqual(["id", "time", "type", "subject", "client", "ip", "user_agent", "params"]);
    expect(rows).toEqual([[expect.stringMatching(/^\d+$/), expect.any(String), "user.sign_in_failed", sub, "rp-web", ip, `'${FORMULA_UA}`, '{"reason":"bad_password"}']]);
  });

  it("answers a filter it cannot read with 400 input_error, naming the field", async () => {
    for (const q of ["type=Not%20a%20type", "from=yesterday", "colour=red"]) {
      const r = await exportOf(q, cookie);
      expect(r.status, q).toBe(400);
      expect(r.body.type, q).toBe("input_error");
    }
  });
});
