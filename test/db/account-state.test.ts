import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  accountStateOf,
  checkAccountUsable,
  lockInactiveAccounts,
  recordSignedIn,
  setUntouchable,
  unlockAccount,
} from "../../server/account-state/account-state.service.ts";
import { migrate, readMigrationFiles } from "../../server/db/migrator.ts";
import { AppError } from "../../server/errors/app-error.ts";
import { DB_KINDS, freshDatabase, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

// The state machine needs a controlled clock: every call passes `now` and the period.
const DAY = 86_400;
const PERIOD = 30 * DAY;
const T0 = new Date("2026-01-01T00:00:00Z");
const at = (days: number) => new Date(T0.getTime() + days * DAY * 1000);
const unix = (d: Date) => Math.floor(d.getTime() / 1000);
const admin = { subject: "admin", ip: "203.0.113.9", userAgent: "Console" };

describe.each(DB_KINDS)("account state on %s", (kind) => {
  let t: TTestDatabase;
  let n = 0;
  const newUser = async (createdAt = T0): Promise<string> => {
    const id = `st-${kind}-${++n}`;
    await t.db.prisma.user.create({ data: { id, instanceId: `${id}.x`, createdAt }, select: { id: true } });
    return id;
  };
  const eventsOf = (subject: string) =>
    t.db.prisma.securityEvent.findMany({ where: { subject, type: "user.state_changed" }, orderBy: { id: "asc" }, select: { params: true, ip: true } });

  beforeAll(async () => {
    t = await installTestDatabase(kind);
  });
  afterAll(async () => t?.close());

  it("initial until the first sign-in, then active with checkedOn at each sign-in", async () => {
    const id = await newUser();
    expect(await accountStateOf(id, at(1))).toEqual({ name: "initial" });
    expect(await recordSignedIn(id, { now: at(1), periodS: PERIOD })).toEqual({ ok: true });
    expect(await accountStateOf(id, at(1))).toEqual({ name: "active", checkedOn: unix(at(1)) });
    expect(await recordSignedIn(id, { now: at(20), periodS: PERIOD })).toEqual({ ok: true });
    expect(await accountStateOf(id, at(20))).toEqual({ name: "active", checkedOn: unix(at(20)) });
    expect((await eventsOf(id)).map((e) => e.params)).toEqual([{ from: "initial", to: "active", reason: "first_sign_in" }]);
    await expect(accountStateOf("no-such-account")).rejects.toMatchObject({ code: "user.not_found" });
  });

  it("writes checkedOn at most once an hour: a sign-in within the hour of the last check writes nothing", async () => {
    const id = await newUser();
    const minutes = (m: number) => new Date(at(1).getTime() + m * 60_000);
    await recordSignedIn(id, { now: minutes(0), periodS: PERIOD });
    const written = async () => (await t.db.prisma.accountState.findUnique({ where: { userId: id }, select: { checkedOn: true, updatedAt: true } }))!;
    const first = await written();
    await recordSignedIn(id, { now: minutes(59), periodS: PERIOD });
    expect(await written()).toEqual(first);
    await recordSignedIn(id, { now: minutes(61), periodS: PERIOD });
    expect((await written()).checkedOn).toEqual(minutes(61));
  });

  it("locks at sign-in once the period ran out, and an administrator unlocks", async () => {
    const id = await newUser();
    await recordSignedIn(id, { now: at(1), periodS: PERIOD });
    expect(await checkAccountUsable(id, { now: at(30), periodS: PERIOD })).toEqual({ ok: true });
    expect(await checkAccountUsable(id, { now: at(31), periodS: PERIOD })).toEqual({ ok: false, reason: "inactivityLock", lockedOn: unix(at(31)) });
    expect(await recordSignedIn(id, { now: at(32), periodS: PERIOD })).toEqual({ ok: false, reason: "inactivityLock", lockedOn: unix(at(31)) });
    expect(await accountStateOf(id, at(32))).toEqual({ name: "inactivityLock", on: unix(at(31)) });
    // With the lock off, nothing locks, but a lock stays a lock.
    expect(await checkAccountUsable(id, { now: at(400), periodS: 0 })).toMatchObject({ ok: false });

    await unlockAccount(id, admin, { by: "console", admin: "admin" }, at(40));
    expect(await accountStateOf(id, at(40))).toEqual({ name: "active", checkedOn: unix(at(40)) });
    expect(await checkAccountUsable(id, { now: at(69), periodS: PERIOD })).toEqual({ ok: true });
    const unlocked = await unlockAccount(id, admin, {}, at(41)).catch((e: unknown) => e);
    expect(unlocked).toBeInstanceOf(AppError);
    expect((unlocked as AppError).code).toBe("state.not_locked");

    const events = await eventsOf(id);
    expect(events.map((e) => e.params)).toEqual([
      { from: "initial", to: "active", reason: "first_sign_in" },
      { from: "active", to: "inactivityLock", reason: "inactivity", by: "sign_in" },
      { from: "inactivityLock", to: "active", reason: "unlocked", by: "console", admin: "admin" },
    ]);
    expect(events[2]!.ip).toBe("203.0.113.9");
  });

  it("an account that never signed in counts from its creation", async () => {
    const id = await newUser(at(0));
    expect(await checkAccountUsable(id, { now: at(29), periodS: PERIOD })).toEqual({ ok: true });
    expect(await recordSignedIn(id, { now: at(31), periodS: PERIOD })).toMatchObject({ ok: false, reason: "inactivityLock" });
    expect((await eventsOf(id)).map((e) => e.params)).toEqual([{ from: "initial", to: "inactivityLock", reason: "inactivity", by: "sign_in" }]);
  });

  it("untouchable: shown over the state, exempt until till, lifts a lock, cancelled by till = now", async () => {
    const id = await newUser();
    await recordSignedIn(id, { now: at(1), periodS: PERIOD });
    await checkAccountUsable(id, { now: at(40), periodS: PERIOD });
    expect((await accountStateOf(id, at(40))).name).toBe("inactivityLock");

    await setUntouchable(id, unix(at(100)), admin, {}, at(41));
    expect(await accountStateOf(id, at(41))).toEqual({ name: "untouchable", till: unix(at(100)) });
    expect(await checkAccountUsable(id, { now: at(99), periodS: PERIOD })).toEqual({ ok: true });
    // After till it is active again, and the period counts from till.
    expect(await accountStateOf(id, at(101))).toEqual({ name: "active", checkedOn: unix(at(41)) });
    expect(await checkAccountUsable(id, { now: at(129), periodS: PERIOD })).toEqual({ ok: true });
    expect(await checkAccountUsable(id, { now: at(131), periodS: PERIOD })).toMatchObject({ ok: false });

    const forever = await newUser();
    await setUntouchable(forever, undefined, admin, {}, at(1));
    expect(await accountStateOf(forever, at(5000))).toEqual({ name: "untouchable" });
    expect(await checkAccountUsable(forever, { now: at(5000), periodS: PERIOD })).toEqual({ ok: true });
    await setUntouchable(forever, unix(at(5000)), admin, {}, at(5000));
    expect(await accountStateOf(forever, at(5000))).toEqual({ name: "initial" });
    expect(await checkAccountUsable(forever, { now: at(5029), periodS: PERIOD })).toEqual({ ok: true });
    // Cancelling what is not in force changes nothing and records nothing.
    await setUntouchable(forever, unix(at(5001)), admin, {}, at(5002));
    expect((await eventsOf(forever)).map((e) => e.params)).toEqual([
      { from: "initial", to: "untouchable", till: null },
      { from: "untouchable", to: "initial", till: unix(at(5000)) },
    ]);
    expect((await eventsOf(id)).map((e) => (e.params as { to: string }).to)).toEqual(["active", "inactivityLock", "untouchable", "inactivityLock"]);
  });

  describe("the sweep", () => {
    beforeEach(async () => {
      // Each sweep test starts from accounts of its own: the earlier ones are locked or exempt already.
      await t.db.prisma.user.deleteMany({});
    });

    it("locks what is due and only that, once, with an event each", async () => {
      const now = at(100);
      const due = { initial: await newUser(at(0)), active: await newUser(), expired: await newUser() };
      const spared = { recent: await newUser(at(70)), young: await newUser(at(80)), forever: await newUser(), later: await newUser(), cancelled: await newUser() };
      await recordSignedIn(due.active, { now: at(10), periodS: PERIOD });
      await setUntouchable(due.expired, unix(at(20)), admin, {}, at(1));
      await recordSignedIn(spared.recent, { now: at(90), periodS: PERIOD });
      await setUntouchable(spared.forever, undefined, admin, {}, at(1));
      await setUntouchable(spared.later, unix(at(200)), admin, {}, at(1));
      await setUntouchable(spared.cancelled, undefined, admin, {}, at(1));
      await setUntouchable(spared.cancelled, unix(at(85)), admin, {}, at(85));

      expect(await lockInactiveAccounts(now, 0)).toEqual({ off: true });
      expect(await lockInactiveAccounts(now, PERIOD)).toEqual({ off: false, skipped: false, locked: 3 });
      for (const id of Object.values(due)) expect(await accountStateOf(id, now)).toEqual({ name: "inactivityLock", on: unix(now) });
      for (const id of Object.values(spared)) expect((await accountStateOf(id, now)).name).not.toBe("inactivityLock");
      expect((await eventsOf(due.initial)).map((e) => e.params)).toEqual([{ from: "initial", to: "inactivityLock", reason: "inactivity", by: "sweep" }]);
      expect((await eventsOf(due.active)).at(-1)!.params).toEqual({ from: "active", to: "inactivityLock", reason: "inactivity", by: "sweep" });
      expect(await lockInactiveAccounts(at(101), PERIOD)).toEqual({ off: false, skipped: false, locked: 0 });
    });

    it("two sweeps racing lock each account once: one sweeps, the other finds it done or skips", async () => {
      await t.db.sql.session((s) =>
        s.query(`INSERT INTO users (id, instance_id, created_at) SELECT 'race-' || g, 'race-' || g || '.x', $1 FROM generate_series(1, 2500) g`, [T0.toISOString()]),
      );
      const results = await Promise.all([lockInactiveAccounts(at(100), PERIOD), lockInactiveAccounts(at(100), PERIOD)]);
      const locked = results.map((r) => (r.off || r.skipped ? 0 : r.locked));
      expect(locked.reduce((a, b) => a + b, 0)).toBe(2500);
      expect(locked).toContain(2500);
      // On PostgreSQL the two run on two connections at once: the second finds the advisory lock taken.
      if (kind === "postgres") expect(results).toContainEqual({ off: false, skipped: true });
      const events = await t.db.prisma.securityEvent.groupBy({ by: ["subject"], where: { type: "user.state_changed", subject: { startsWith: "race-" } }, _count: true });
      expect(events).toHaveLength(2500);
      expect(events.every((e) => e._count === 1)).toBe(true);
    });

    it.runIf(kind === "postgres")("a sweep in another process (npm run idp -- lock-inactive) and one here lock each account once", async () => {
      await t.db.sql.session((s) =>
        s.query(`INSERT INTO users (id, instance_id, created_at) SELECT 'proc-' || g, 'proc-' || g || '.x', now() - interval '400 days' FROM generate_series(1, 4000) g`),
      );
      const cli = runCli(["lock-inactive"], { DATABASE_URL: t.url!, IDP_SECRET_KEY: "db-test-secret-key-0123456789abcdef", IDP_INACTIVITY_LOCK_DAYS: "30" });
      const here = await lockInactiveAccounts(new Date(), 30 * DAY);
      const out = await cli;
      expect(out.code).toBe(0);
      const byCli = /locked (\d+) inactive/.exec(out.stdout);
      const lockedHere = here.off || here.skipped ? 0 : here.locked;
      expect(byCli || /another sweep is running/.test(out.stdout)).toBeTruthy();
      expect(lockedHere + Number(byCli?.[1] ?? 0)).toBe(4000);
      const events = await t.db.prisma.securityEvent.groupBy({ by: ["subject"], where: { type: "user.state_changed", subject: { startsWith: "proc-" } }, _count: true });
      expect(events).toHaveLength(4000);
      expect(events.every((e) => e._count === 1)).toBe(true);

      const unlocked = await runCli(["unlock", "proc-1"], { DATABASE_URL: t.url!, IDP_SECRET_KEY: "db-test-secret-key-0123456789abcdef" });
      expect(unlocked.stdout).toContain("unlocked proc-1");
      expect((await accountStateOf("proc-1")).name).toBe("active");
      const off = await runCli(["lock-inactive"], { DATABASE_URL: t.url!, IDP_SECRET_KEY: "db-test-secret-key-0123456789abcdef", IDP_INACTIVITY_LOCK_DAYS: "0" });
      expect(off.stdout).toContain("the inactivity lock is off");
    });
  });
});

function runCli(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(process.cwd(), "server", "cli", "cli.ts"), ...args], {
    cwd: process.cwd(),
    env: { ...process.env, ...env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code, stdout, stderr })));
}

describe.each(DB_KINDS)("the account state migration on %s", (kind) => {
  it("starts accounts that signed in before it as active since their last sign-in, the others as initial", async () => {
    const t = await freshDatabase(kind);
    try {
      const files = readMigrationFiles();
      const mine = files.findIndex((f) => f.name === "20261128000300_account_state");
      await migrate(t.db.sql, files.slice(0, mine));
      await t.db.sql.session(async (s) => {
        await s.query(`INSERT INTO users (id, instance_id) VALUES ('old-a', 'a.x'), ('old-b', 'b.x')`);
        await s.query(
          `INSERT INTO security_events (type, subject, created_at) VALUES
           ('user.signed_in', 'old-a', '2026-03-01T00:00:00Z'), ('user.signed_in', 'old-a', '2026-05-01T00:00:00Z'),
           ('user.sign_in_failed', 'old-b', '2026-05-01T00:00:00Z'), ('user.signed_in', 'deleted-user', '2026-05-01T00:00:00Z')`,
        );
      });
      await migrate(t.db.sql, files);
      const rows = await t.db.sql.session((s) => s.query<{ user_id: string; name: string; checked_on: Date }>(`SELECT user_id, name, checked_on FROM account_states`));
      expect(rows.map((r) => [r.user_id, r.name, new Date(r.checked_on).toISOString()])).toEqual([["old-a", "active", "2026-05-01T00:00:00.000Z"]]);
    } finally {
      await t.close();
    }
  });
});
