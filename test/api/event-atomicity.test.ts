import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { changeUser, regToken, unique } from "../support/accounts.ts";
import { api } from "../support/http.ts";

/*
 * A change and its security event commit together. The database refuses the event (a trigger stands
 * in for a database going away between the two writes, as a PostgreSQL restart under load did): the
 * change must not have happened either, and a retry must then succeed as if it were the first try.
 * PostgreSQL only: the test reaches into the database while the server runs.
 */

const postgres = inject("dbKind") === "postgres";
const DOOMED = "evfail-";

describe.runIf(postgres)("a change and its security event commit together", () => {
  let db: pg.Client;

  beforeAll(async () => {
    db = new pg.Client({ connectionString: inject("databaseUrl") });
    await db.connect();
    await db.query(`CREATE OR REPLACE FUNCTION refuse_doomed_event() RETURNS trigger AS $$
      BEGIN RAISE EXCEPTION 'event refused for the test'; END $$ LANGUAGE plpgsql`);
    await db.query(`CREATE TRIGGER refuse_doomed_event BEFORE INSERT ON security_events
      FOR EACH ROW WHEN (NEW.subject LIKE '${DOOMED}%') EXECUTE FUNCTION refuse_doomed_event()`);
  });

  afterAll(async () => {
    await db.query("DROP TRIGGER IF EXISTS refuse_doomed_event ON security_events");
    await db.query("DROP FUNCTION IF EXISTS refuse_doomed_event()");
    await db.end();
  });

  const accountRows = async (sub: string) => (await db.query("SELECT id, attrs FROM users WHERE id = $1", [sub])).rows;
  const events = async (sub: string) => (await db.query("SELECT type FROM security_events WHERE subject = $1 ORDER BY id", [sub])).rows.map((r) => r.type);

  it("registration: no account without its user.registered, and the retry is a first try", async () => {
    const sub = unique(DOOMED);
    const body = { user: { attrs: { sub, family_name: "Сбоев" } } };
    const failed = await api("PUT", "/reg/api/v3/users", { token: await regToken(), body });
    expect(failed.status).toBe(500);
    expect(failed.text).not.toMatch(/event refused|security_events|trigger/);
    expect(await accountRows(sub)).toEqual([]);

    await db.query("ALTER TABLE security_events DISABLE TRIGGER refuse_doomed_event");
    try {
      const retried = await api("PUT", "/reg/api/v3/users", { token: await regToken(), body });
      expect(retried.status).toBe(200);
      expect(retried.body.subject).toBe(sub);
      expect(await events(sub)).toEqual(["user.registered"]);
    } finally {
      await db.query("ALTER TABLE security_events ENABLE TRIGGER refuse_doomed_event");
    }
  });

  it("attribute change: nothing changes when its user.attributes_changed cannot be written", async () => {
    const sub = unique(DOOMED);
    await db.query("ALTER TABLE security_events DISABLE TRIGGER refuse_doomed_event");
    let instanceId: string;
    try {
      const created = await api("PUT", "/reg/api/v3/users", { token: await regToken(), body: { user: { attrs: { sub, family_name: "Сбоев" } } } });
      instanceId = created.body.instanceId;
    } finally {
      await db.query("ALTER TABLE security_events ENABLE TRIGGER refuse_doomed_event");
    }

    const failed = await changeUser(instanceId!, { family_name: "Переменов" });
    expect(failed.status).toBe(500);
    const [row] = await accountRows(sub);
    expect(row.attrs.family_name).toBe("Сбоев");
    expect(await events(sub)).toEqual(["user.registered"]);

    // The same version still applies: the failed change left no trace, not even a new instanceId.
    await db.query("ALTER TABLE security_events DISABLE TRIGGER refuse_doomed_event");
    try {
      const retried = await changeUser(instanceId!, { family_name: "Переменов" });
      expect(retried.status).toBe(200);
    } finally {
      await db.query("ALTER TABLE security_events ENABLE TRIGGER refuse_doomed_event");
    }
    expect((await accountRows(sub))[0].attrs.family_name).toBe("Переменов");
    expect(await events(sub)).toEqual(["user.registered", "user.attributes_changed"]);
  });
});
