import { describe, expect, inject, it } from "vitest";
import { createUser, createUserWithPassword, readUser, unique } from "../support/accounts.ts";
import { consoleSignIn, trpcCall } from "../support/console.ts";
import { base } from "../support/http.ts";

// Bulk actions on the users list: each account gets what its own page would do (checks, events,
// notices); refusals are reported per account while the rest go on; a user manager cannot touch an
// account holding a console role; the selection is bounded; two deletions racing on one account
// delete it once; an export is CSV with formulas defused, or JSON.

const admin = () => consoleSignIn(base(), "admin", inject("adminPassword"));
const bulk = (cookie: string, subs: string[], action: string) => trpcCall(base(), cookie, "console.users.bulk", { subs, action }, "mutation");
const locked = async (sub: string) => (await readUser(sub)).body.locked;

async function adminSub(cookie: string): Promise<string> {
  const found = await trpcCall(base(), cookie, "console.users.list", { search: "admin" });
  return found.body.result!.data.items.find((r: { login: string | null }) => r.login === "admin").sub;
}

describe("bulk actions on users", () => {
  it("locks and unlocks each selected account, and refuses the administrator's own in words while doing the rest", async () => {
    const cookie = await admin();
    const [a, b] = [await createUser({ family_name: "Массов" }), await createUser({ family_name: "Массов" })];
    const own = await adminSub(cookie);
    const r = await bulk(cookie, [a.sub, own, b.sub], "lock");
    expect(r.status).toBe(200);
    expect(r.body.result!.data).toEqual({ done: [a.sub, b.sub], refused: [{ sub: own, code: "console.own_account" }] });
    expect(await locked(a.sub)).toBe(true);
    expect(await locked(b.sub)).toBe(true);

    const events = await trpcCall(base(), cookie, "console.events.list", { sub: a.sub, limit: 20 });
    // Recorded as on the account's own page: a change of its attributes, by this administrator.
    const change = events.body.result!.data.items.find((e: { type: string }) => e.type === "user.attributes_changed");
    expect(JSON.stringify(change.params)).toContain("locked");

    expect((await bulk(cookie, [a.sub, b.sub], "unlock")).body.result!.data).toEqual({ done: [a.sub, b.sub], refused: [] });
    expect(await locked(a.sub)).toBe(false);
  });

  it("lets a user manager act on people but not on an account with a console role", async () => {
    const cookie = await admin();
    const manager = await createUserWithPassword("a manager's own passphrase");
    expect((await trpcCall(base(), cookie, "console.users.setRoles", { sub: manager.sub, roles: ["user_manager"] }, "mutation")).status).toBe(200);
    const managerCookie = await consoleSignIn(base(), manager.sub, manager.password);
    const person = await createUser({ family_name: "Управляемый" });
    const r = await bulk(managerCookie, [person.sub, await adminSub(cookie)], "lock");
    expect(r.body.result!.data).toEqual({ done: [person.sub], refused: [{ sub: await adminSub(cookie), code: "console.privileged_account" }] });
    expect((await bulk(managerCookie, [person.sub], "unlock")).body.result!.data.done).toEqual([person.sub]);
  });

  it("deletes once when two deletions race on the same accounts, and ends sessions of the rest", async () => {
    const cookie = await admin();
    const [a, b] = [await createUser(), await createUser()];
    const [first, second] = await Promise.all([bulk(cookie, [a.sub, b.sub], "delete"), bulk(cookie, [a.sub, b.sub], "delete")]);
    const done = [...first.body.result!.data.done, ...second.body.result!.data.done].sort();
    expect(done).toEqual([a.sub, b.sub].sort());
    const refused = [...first.body.result!.data.refused, ...second.body.result!.data.refused];
    // The loser finds each account gone, or changed under it while it deleted: refused either way.
    expect(refused).toHaveLength(2);
    for (const r of refused) expect(["user.not_found", "user.stale_instance"]).toContain(r.code);
    expect((await readUser(a.sub)).status).toBe(404);

    const c = await createUser();
    expect((await bulk(cookie, [c.sub], "endSessions")).body.result!.data).toEqual({ done: [c.sub], refused: [] });
  });

  it("refuses an empty, oversized, repeated or unknown selection and changes nothing", async () => {
    const cookie = await admin();
    const a = await createUser();
    for (const [subs, action] of [[[], "lock"], [Array.from({ length: 101 }, (_, i) => `u${i}`), "lock"], [[a.sub, a.sub], "lock"], [[a.sub], "explode"]] as const) {
      const r = await bulk(cookie, [...subs], action);
      expect(r.status, `${subs.length} ${action}`).toBe(400);
    }
    expect(await locked(a.sub)).toBe(false);
  });

  it("exports the selection as CSV with formulas defused, or as JSON", async () => {
    const cookie = await admin();
    const a = await createUser({ family_name: "=HYPERLINK(\"http://evil\")", given_name: "Ева" });
    const b = await createUser({ family_name: unique("Выгрузкин") });
    const csv = await trpcCall(base(), cookie, "console.users.export", { subs: [a.sub, b.sub], format: "csv" }, "mutation");
    expect(csv.status).toBe(200);
    const file = csv.body.result!.data;
    expect(file).toMatchObject({ filename: "users.csv", mime: "text/csv" });
    const lines = file.text.split("\r\n");
    expect(lines[0]).toBe("sub,login,family_name,given_name,email,email_confirmed,phone_number,phone_confirmed,locked,roles");
    expect(lines.find((l: string) => l.startsWith(a.sub))).toBe(`${a.sub},,"'=HYPERLINK(""http://evil"")",Ева,,,,,false,`);
    const json = await trpcCall(base(), cookie, "console.users.export", { subs: [b.sub, `gone-${b.sub}`], format: "json" }, "mutation");
    expect(JSON.parse(json.body.result!.data.text)).toEqual([expect.objectContaining({ sub: b.sub, locked: false })]);
    // Each download is on the trail: which format and how many accounts, not who they were.
    const events = await trpcCall(base(), cookie, "console.events.list", { type: "console.users_exported", limit: 5 });
    expect(events.body.result!.data.items.slice(0, 2).map((e: { params: object }) => e.params)).toEqual([
      expect.objectContaining({ format: "json", count: 1 }),
      expect.objectContaining({ format: "csv", count: 2 }),
    ]);
  });
});
