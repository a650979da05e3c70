import { describe, expect, it } from "vitest";
import { changeUser, createUser } from "../support/accounts.ts";
import { api, systemToken } from "../support/http.ts";

const audit = async (sub: string, query = "") => api("GET", `/api/v3/users/${sub}/audit${query}`, { token: await systemToken("users-app", "idp_api_sys_uaud") });

describe("GET /api/v3/users/{subjectId}/audit", () => {
  it("lists the account's events newest first, with the acting client, filtered by type and time", async () => {
    const { sub, instanceId } = await createUser();
    const first = await changeUser(instanceId, { given_name: "Первое" });
    await changeUser(first.body.meta.instanceId, { given_name: "Второе" });
    const r = await audit(sub);
    expect(r.status).toBe(200);
    expect(r.body.events.map((e: { type: string }) => e.type)).toEqual(["user.attributes_changed", "user.attributes_changed", "user.registered"]);
    expect(r.body.events[0]).toEqual({
      id: expect.stringMatching(/^\d+$/),
      type: "user.attributes_changed",
      time: expect.any(Number),
      clientId: "users-app",
      ip: null,
      userAgent: null,
      params: { attributes: ["given_name"] },
    });
    expect(r.body.nextCursor).toBeNull();
    expect(Math.abs(r.body.events[0].time - Date.now() / 1000)).toBeLessThan(60);
    expect((await audit(sub, "?type=user.registered")).body.events).toHaveLength(1);
    expect((await audit(sub, `?from=${Math.floor(Date.now() / 1000) + 60}`)).body.events).toEqual([]);
    expect((await audit(sub, `?to=${Math.floor(Date.now() / 1000) - 3600}`)).body.events).toEqual([]);
  });

  it("pages with a cursor without repeating or skipping an event", async () => {
    const { sub, instanceId } = await createUser();
    let version = instanceId;
    for (const name of ["А", "Б", "В"]) version = (await changeUser(version, { given_name: name })).body.meta.instanceId;
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { events: { id: string }[]; nextCursor: string | null } } = await audit(sub, `?limit=1${cursor ? `&cursor=${cursor}` : ""}`);
      seen.push(...page.body.events.map((e) => e.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(4);
    expect(new Set(seen).size).toBe(4);
    expect(seen).toEqual([...seen].sort((a, b) => Number(b) - Number(a)));
  });

  it("refuses bad filters, unknown accounts and tokens without the audit scope", async () => {
    const { sub } = await createUser();
    for (const q of ["?cursor=abc", "?type=a%20b", "?limit=0", "?from=yesterday", "?nope=1"]) expect((await audit(sub, q)).status, q).toBe(400);
    expect((await audit("no-such-user")).status).toBe(404);
    const wrong = await api("GET", `/api/v3/users/${sub}/audit`, { token: await systemToken("users-app", "idp_api_sys_users") });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ type: "security_error", error: "bad_access_token", desc: "missing scopes: idp_api_sys_uaud" });
  });
});
