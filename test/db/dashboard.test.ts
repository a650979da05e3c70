import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleDashboard } from "../../server/dashboard/dashboard.service.ts";
import { ensureSigningKey } from "../../server/oauth/keys/signing-keys.service.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

// The console's home page figures, on rows placed at known times: accounts (all, this week, locked),
// sign-ins and failures per hour and per day with the quiet buckets as zeros, live sessions, the
// outbox's backlog and this week's failed deliveries, and the signing key's age.

const NOW = new Date("2026-11-20T15:40:00Z");
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const H = 3_600_000;
const D = 24 * H;

describe.each(DB_KINDS)("console dashboard on %s", (kind) => {
  let t: TTestDatabase;

  beforeAll(async () => {
    t = await installTestDatabase(kind);
    const p = t.db.prisma;
    const user = (id: string, createdAt: Date, locked = false) => ({ id, instanceId: `${id}-v1`, createdAt, locked });
    await p.user.createMany({ data: [user("old", ago(30 * D)), user("old-locked", ago(20 * D), true), user("new", ago(2 * D)), user("new-locked", ago(H), true)] });
    const event = (type: string, createdAt: Date) => ({ type, subject: "new", createdAt });
    await p.securityEvent.createMany({
      data: [
        event("user.signed_in", ago(10 * 60_000)), // this hour (15:00)
        event("user.signed_in", ago(20 * 60_000)),
        event("user.sign_in_failed", ago(30 * 60_000)),
        event("user.sign_in_failed", ago(3 * H)), // 12:00
        event("user.signed_in", ago(30 * H)), // yesterday 09:40: outside the 24 hours, inside the days
        event("user.signed_in", ago(8 * D)), // outside both
        event("user.password_changed", ago(5 * 60_000)), // not a sign-in
      ],
    });
    const session = (id: string, expiresAt: Date) => ({ id, tokenHash: `hash-${id}`, userId: "new", authTime: ago(H), expiresAt });
    await p.browserSession.createMany({ data: [session("live", new Date(NOW.getTime() + H)), session("expired", ago(H))] });
    const message = (id: string, status: string, createdAt: Date) => ({ id, channel: "email", recipient: "a@example.org", bodySealed: "x", locale: "en", template: "t", status, createdAt, purpose: "test" });
    await p.outboxMessage.createMany({
      data: [message("m1", "pending", ago(H)), message("m2", "pending", ago(2 * D)), message("m3", "failed", ago(D)), message("m4", "failed", ago(9 * D)), message("m5", "sent", ago(H))],
    });
    await ensureSigningKey();
    await p.signingKey.updateMany({ data: { signsFrom: ago(40 * D), createdAt: ago(40 * D) } });
  });
  afterAll(async () => t?.close());

  it("counts what the home page shows, as of the moment asked", async () => {
    const d = await consoleDashboard(NOW);
    expect(d.accounts).toEqual({ total: 4, created: 2, locked: 2 });
    expect(d.sessions).toBe(1);
    expect(d.outbox).toEqual({ pending: 2, failedThisWeek: 1 });
    expect(d.signingKey).toMatchObject({ ageDays: 40 });

    expect(d.signIns.hours).toHaveLength(24);
    expect(d.signIns.hours[0]!.at).toBe("2026-11-19T16:00:00.000Z");
    expect(d.signIns.hours.at(-1)).toEqual({ at: "2026-11-20T15:00:00.000Z", signedIn: 2, failed: 1 });
    expect(d.signIns.hours.find((b) => b.at === "2026-11-20T12:00:00.000Z")).toEqual({ at: "2026-11-20T12:00:00.000Z", signedIn: 0, failed: 1 });
    expect(d.signIns.hours.reduce((n, b) => n + b.signedIn + b.failed, 0)).toBe(4);

    expect(d.signIns.days.map((b) => b.at.slice(0, 10))).toEqual(["2026-11-14", "2026-11-15", "2026-11-16", "2026-11-17", "2026-11-18", "2026-11-19", "2026-11-20"]);
    expect(d.signIns.days.at(-1)).toMatchObject({ signedIn: 2, failed: 2 });
    expect(d.signIns.days.at(-2)).toMatchObject({ signedIn: 1, failed: 0 });
    expect(d.signIns.days.slice(0, 5).every((b) => b.signedIn === 0 && b.failed === 0)).toBe(true);
  });
});
