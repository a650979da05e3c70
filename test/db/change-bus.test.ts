import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createPgDatabase } from "../../scripts/server-lib.mjs";
import { ChangeBus, type TChangeHandler } from "../../server/cache/change-bus.ts";
import { openDatabase, type TDatabase } from "../../server/db/database.ts";

const adminUrl = process.env.TEST_DATABASE_URL;

/** A handler that records every key it is given. */
function recorder() {
  const seen: (string | undefined)[] = [];
  const handler: TChangeHandler = (key) => void seen.push(key);
  return { seen, handler };
}

describe("change bus on the embedded database", () => {
  it("applies a change to this process's handlers at once, with nothing to listen to", async () => {
    const db = await openDatabase({ kind: "memory" });
    const bus = new ChangeBus(async () => db);
    try {
      await bus.start();
      const client = recorder();
      const other = recorder();
      bus.onChange("client", client.handler);
      bus.onChange("other", other.handler);
      const sent = bus.publishChange("client", "app-1");
      expect(client.seen).toEqual(["app-1"]);
      await sent;
      await bus.publishChange("client");
      expect(client.seen).toEqual(["app-1", undefined]);
      expect(other.seen).toEqual([]);
    } finally {
      await bus.stop();
      await db.close();
    }
  });
});

describe.skipIf(!adminUrl)("change bus between two processes on PostgreSQL", () => {
  let created: Awaited<ReturnType<typeof createPgDatabase>>;
  let dbA: TDatabase;
  let dbB: TDatabase;
  let a: ChangeBus;
  let b: ChangeBus;

  beforeAll(async () => {
    created = await createPgDatabase(adminUrl!);
    // Two pools and two listening connections, as two server processes would have.
    dbA = await openDatabase({ kind: "postgres", url: created.url });
    dbB = await openDatabase({ kind: "postgres", url: created.url });
    a = new ChangeBus(async () => dbA);
    b = new ChangeBus(async () => dbB);
    await Promise.all([a.start(), b.start()]);
  });

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await Promise.all([dbA?.close(), dbB?.close()]);
    await created?.drop();
  });

  it("delivers a change to the other process within a second and ignores its own", async () => {
    const onA = recorder();
    const onB = recorder();
    const markerOnA = recorder();
    a.onChange("client", onA.handler);
    b.onChange("client", onB.handler);
    a.onChange("marker", markerOnA.handler);

    await a.publishChange("client", "app-1");
    expect(onA.seen).toEqual(["app-1"]);
    await vi.waitFor(() => expect(onB.seen).toEqual(["app-1"]), { timeout: 1_000, interval: 20 });

    // NOTIFY delivers in commit order: once A has B's later message, its own earlier one was due too.
    await b.publishChange("marker", "m");
    await vi.waitFor(() => expect(markerOnA.seen).toEqual(["m"]), { timeout: 1_000, interval: 20 });
    expect(onA.seen).toEqual(["app-1"]);
  });

  it("turns a key too long for NOTIFY into a change of the whole topic", async () => {
    const onA = recorder();
    const onB = recorder();
    a.onChange("long", onA.handler);
    b.onChange("long", onB.handler);
    const key = "k".repeat(9_000);
    await a.publishChange("long", key);
    expect(onA.seen).toEqual([key]);
    await vi.waitFor(() => expect(onB.seen).toEqual([undefined]), { timeout: 1_000, interval: 20 });
  });

  it("reconnects a killed listening connection, flushes every topic, and delivers again", async () => {
    const onA = recorder();
    const onB = recorder();
    a.onChange("client", onA.handler);
    b.onChange("client", onB.handler);

    const admin = new pg.Client({ connectionString: created.url });
    await admin.connect();
    try {
      const killed = await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'idp-listen'",
      );
      expect(killed.rowCount).toBe(2);
      // Messages sent while nobody listened are lost: each bus drops everything of each topic.
      await vi.waitFor(() => expect(onB.seen).toEqual([undefined]), { timeout: 5_000, interval: 20 });
      await vi.waitFor(() => expect(onA.seen).toEqual([undefined]), { timeout: 5_000, interval: 20 });
      const listening = await admin.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'idp-listen'");
      expect(listening.rows[0].n).toBe(2);
    } finally {
      await admin.end();
    }

    await a.publishChange("client", "after-reconnect");
    await vi.waitFor(() => expect(onB.seen).toEqual([undefined, "after-reconnect"]), { timeout: 1_000, interval: 20 });
    await b.publishChange("client", "back");
    await vi.waitFor(() => expect(onA.seen).toEqual([undefined, "after-reconnect", "back"]), { timeout: 1_000, interval: 20 });
  });

  it("keeps every cache while its heartbeats come back", async () => {
    const db = await openDatabase({ kind: "postgres", url: created.url });
    const bus = new ChangeBus(async () => db, 50, 200);
    try {
      await bus.start();
      const seen = recorder();
      bus.onChange("client", seen.handler);
      // Ten heartbeats and more, each back well within its 200 ms.
      await new Promise((r) => setTimeout(r, 700));
      expect(seen.seen).toEqual([]);
    } finally {
      await bus.stop();
      await db.close();
    }
  });

  it("flushes every topic when a heartbeat cannot go out, and sends a failed change again once NOTIFY works", async () => {
    const db = await openDatabase({ kind: "postgres", url: created.url });
    const notifications = db.notifications!;
    const realNotify = notifications.notify.bind(notifications);
    // The database refuses NOTIFY for a while (as during a failover); LISTEN stays up.
    let refusing = true;
    notifications.notify = (channel, payload) => (refusing ? Promise.reject(new Error("refused")) : realNotify(channel, payload));
    const bus = new ChangeBus(async () => db, 100, 150);
    try {
      await bus.start();
      const here = recorder();
      const onB = recorder();
      bus.onChange("client", here.handler);
      b.onChange("client", onB.handler);
      await bus.publishChange("client", "app-9");
      expect(here.seen).toEqual(["app-9"]);
      await vi.waitFor(() => expect(here.seen).toContain(undefined), { timeout: 2_000, interval: 20 });
      expect(onB.seen).toEqual([]);

      refusing = false;
      await vi.waitFor(() => expect(onB.seen).toEqual(["app-9"]), { timeout: 2_000, interval: 20 });
      // Once NOTIFY works, heartbeats come back and the flushes stop.
      const flushes = here.seen.length;
      await new Promise((r) => setTimeout(r, 500));
      expect(here.seen.length).toBe(flushes);
    } finally {
      notifications.notify = realNotify;
      await bus.stop();
      await db.close();
    }
  });
  it("lets a process that never listens (the command line) announce a failed change again before it exits", async () => {
    const db = await openDatabase({ kind: "postgres", url: created.url });
    const notifications = db.notifications!;
    const realNotify = notifications.notify.bind(notifications);
    let refusals = 2;
    notifications.notify = (channel, payload) => (refusals-- > 0 ? Promise.reject(new Error("refused")) : realNotify(channel, payload));
    const cli = new ChangeBus(async () => db);
    try {
      const onB = recorder();
      b.onChange("account-state", onB.handler);
      await cli.publishChange("account-state", "u-1");
      expect(await cli.drain()).toBe(true);
      await vi.waitFor(() => expect(onB.seen).toEqual(["u-1"]), { timeout: 1_000, interval: 20 });
      // Nothing left: draining again sends nothing.
      expect(await cli.drain()).toBe(true);
    } finally {
      notifications.notify = realNotify;
      await cli.stop();
      await db.close();
    }
  });
});
