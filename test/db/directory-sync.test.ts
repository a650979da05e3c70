import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { syncDirectory } from "../../server/directories/directory-sync.service.ts";
import { findRun } from "../../server/directories/directory-sync.repository.ts";
import { AppError } from "../../server/errors/app-error.ts";
import { importDocument } from "../../server/import/import.service.ts";
import { adminCaller } from "../support/console-caller.ts";
import { metrics } from "../../server/metrics/registry.ts";
import { BASE_DN, person, READER, startSlapd, type TSlapd } from "../support/slapd.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

// Synchronisation of a directory against a real slapd: a full run (paged), incremental runs by
// modifyTimestamp, entries disabled there, entries gone from it, one run at a time.

const PEOPLE = 510; // more than one page (500)
const uid = (i: number) => `p${String(i).padStart(4, "0")}`;
const people = () => Array.from({ length: PEOPLE }, (_, i) => person({ uid: uid(i), password: `pw-${i}`, givenName: `Given${i}`, sn: `Family${i}`, mail: `${uid(i)}@example.org` })).join("");
const dnOf = (u: string) => `uid=${u},ou=people,${BASE_DN}`;
// modifyTimestamp has whole seconds: a change must fall in a later second than the last run's mark to be newer.
const nextSecond = () => new Promise((r) => setTimeout(r, 1_100 - (Date.now() % 1_000)));

describe.each(DB_KINDS)("directory synchronisation on %s", (kind) => {
  let t: TTestDatabase;
  let slapd: TSlapd;
  beforeEach(async () => {
    t = await installTestDatabase(kind);
    slapd = await startSlapd(people());
  });
  afterEach(async () => {
    await slapd.close();
    await t.close();
  });

  const directory = (over: Record<string, unknown> = {}) => ({
    id: "corp", name: "Corporate directory", url: slapd.ldapsUrl, caCert: slapd.caPem, bindDn: READER.dn, bindPassword: READER.password,
    baseDn: `ou=people,${BASE_DN}`, disabledFilter: "(pwdAccountLockedTime=*)", mode: "synchronised",
    attributes: [{ from: "givenName", to: "given_name" }, { from: "sn", to: "family_name" }, { from: "mail", to: "email", transform: "email", verified: true }],
    ...over,
  });
  const sync = async (k?: "full" | "incremental") => {
    // No clock margin: this slapd runs on this machine's clock, and the test's changes are a second apart.
    const { runId, status } = await syncDirectory("corp", k, { subject: "admin" }, { wait: true, clockMarginMs: 0 });
    expect(status, JSON.stringify(await findRun(runId))).toBe("done");
    return (await findRun(runId))!;
  };
  const account = (id: string) => t.db.prisma.user.findUnique({ where: { id }, select: { locked: true, attrs: true } });

  it("reads every entry in pages, then reads only what changed; an incremental run with nothing changed is one search", async () => {
    // A local account already has one entry's address: that entry's account is made without it, the others as a batch.
    await importDocument({ directories: [directory()], users: [{ sub: "local", attributes: { given_name: "Local", email: { value: "p0005@example.org", vrf: true } } }] }, {});
    // The entries were loaded in an earlier second than the full run starts in, as a directory's would be.
    await nextSecond();
    const full = await sync();
    expect(full).toMatchObject({ kind: "full", status: "done", seen: PEOPLE, created: PEOPLE, updated: 0, locked: 0, failed: 0, failures: [] });
    // The disabled entries' search and the entries' own (in two pages).
    expect(full.searches).toBe(2);
    expect(await t.db.prisma.directoryAccount.count({ where: { directoryId: "corp" } })).toBe(PEOPLE);
    expect((await account(uid(7)))!.attrs).toMatchObject({ given_name: "Given7", family_name: "Family7", email: { value: "p0007@example.org", vrf: true } });
    expect(await t.db.prisma.user.count({ where: { passwordHash: { not: null } } })).toBe(0);
    expect(((await account(uid(5)))!.attrs as { email?: unknown }).email).toBeUndefined();
    expect(((await account("local"))!.attrs as { email?: unknown }).email).toEqual({ value: "p0005@example.org", vrf: true });

    const quiet = await sync();
    expect(quiet).toMatchObject({ kind: "incremental", searches: 1, created: 0, updated: 0, locked: 0, unlocked: 0, deleted: 0, failed: 0 });

    slapd.modify(`dn: ${dnOf(uid(7))}\nchangetype: modify\nreplace: givenName\ngivenName: Seventh\n`);
    const changed = await sync();
    expect(changed).toMatchObject({ kind: "incremental", seen: 1, created: 0, updated: 1, failed: 0 });
    expect(((await account(uid(7)))!.attrs as { given_name: string }).given_name).toBe("Seventh");

    const events = await t.db.prisma.securityEvent.findMany({ where: { type: "directory.sync_finished" }, orderBy: { id: "asc" }, select: { params: true } });
    expect(events.map((e) => (e.params as { kind: string; created: number }).kind)).toEqual(["full", "incremental", "incremental"]);
  });

  it("locks the account of an entry disabled there and unlocks it when it is enabled again; an entry gone is locked, or deleted by policy", async () => {
    await importDocument({ directories: [directory()] }, {});
    await nextSecond();
    await sync();
    slapd.modify(`dn: ${dnOf(uid(1))}\nchangetype: modify\nadd: pwdAccountLockedTime\npwdAccountLockedTime: 000001010000Z\n`);
    expect(await sync()).toMatchObject({ kind: "incremental", locked: 1, unlocked: 0 });
    expect((await account(uid(1)))!.locked).toBe(true);
    slapd.modify(`dn: ${dnOf(uid(1))}\nchangetype: modify\ndelete: pwdAccountLockedTime\n`);
    expect(await sync()).toMatchObject({ kind: "incremental", locked: 0, unlocked: 1 });
    expect((await account(uid(1)))!.locked).toBe(false);

    // Gone from the directory: a full run locks its account (the default policy)...
    slapd.modify(`dn: ${dnOf(uid(2))}\nchangetype: delete\n`);
    expect(await sync("full")).toMatchObject({ kind: "full", seen: PEOPLE - 1, locked: 1, deleted: 0 });
    expect((await account(uid(2)))!.locked).toBe(true);
    // ...or, with the delete policy, deletes it.
    await importDocument({ directories: [directory({ missingPolicy: "delete" })] }, {});
    slapd.modify(`dn: ${dnOf(uid(3))}\nchangetype: delete\n`);
    expect(await sync("full")).toMatchObject({ kind: "full", deleted: 2 });
    expect(await account(uid(3))).toBeNull();
    expect(await account(uid(2))).toBeNull();
  });

  it("runs one synchronisation of a directory at a time, and refuses a directory that is not synchronised", async () => {
    await importDocument({ directories: [directory()] }, {});
    const outcomes = await Promise.all([1, 2, 3].map(() => syncDirectory("corp", "full", {}, { wait: true }).then((r) => r.status, (e: AppError) => e.code)));
    expect(outcomes.filter((o) => o === "done")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "directory.sync_running")).toHaveLength(2);
    await importDocument({ directories: [directory({ mode: "on_demand" })] }, {});
    expect(await syncDirectory("corp", undefined, {}).catch((e: AppError) => e.code)).toBe("directory.not_synchronised");
    expect(await syncDirectory("nope", undefined, {}).catch((e: AppError) => e.code)).toBe("directory.not_found");
  });

  it("is listed in the console without its bind password, synchronised from there, its progress and report shown", async () => {
    await importDocument({ directories: [directory()] }, {});
    const { admin } = await adminCaller(t, "10.0.0.9");
    const listed = await admin.console.directories.list();
    // Nothing synchronised yet: checked again at the end, once the accounts exist.
    expect(listed).toMatchObject([{ id: "corp", mode: "synchronised", hasCaCert: true, lastRun: null }]);
    expect(JSON.stringify(listed)).not.toContain(READER.password);
    expect(JSON.stringify(listed)).not.toContain("bindPassword");
    const started = await admin.console.directories.syncNow({ id: "corp", full: false });
    expect(started).toMatchObject({ kind: "full", status: "running" });
    // The console polls the runs while one runs.
    let runs = await admin.console.directories.runs({ id: "corp" });
    for (let i = 0; i < 200 && runs[0]!.status === "running"; i++) {
      await new Promise((r) => setTimeout(r, 100));
      runs = await admin.console.directories.runs({ id: "corp" });
    }
    expect(runs[0]).toMatchObject({ id: started.runId, status: "done", created: PEOPLE });
    expect((await admin.console.directories.list())[0]!.lastRun).toMatchObject({ id: started.runId, status: "done" });
    await expect(admin.console.directories.runs({ id: "nope" })).rejects.toMatchObject({ cause: { code: "directory.not_found" } });

    // What the directory keeps is read-only in the console too: shown as such, and refused when sent.
    const detail = await admin.console.users.get({ sub: uid(3) });
    expect(detail.ownedAttrs).toEqual(["email", "family_name", "given_name"]);
    await expect(admin.console.users.update({ instanceId: detail.instanceId, attributes: { given_name: "Edited" } })).rejects.toMatchObject({ cause: { code: "request.invalid_values" } });
    expect(((await account(uid(3)))!.attrs as { given_name: string }).given_name).toBe("Given3");
    // Nor may an import document change it; one that leaves it as it is may change the rest.
    await expect(importDocument({ users: [{ sub: uid(3), attributes: { given_name: "Imported", family_name: "Family3", email: { value: "p0003@example.org", vrf: true } } }] }, {})).rejects.toBeInstanceOf(AppError);
    await importDocument({ users: [{ sub: uid(3), attributes: { given_name: "Given3", family_name: "Family3", email: { value: "p0003@example.org", vrf: true }, middle_name: "Imported" } }] }, {});
    expect((await account(uid(3)))!.attrs).toMatchObject({ given_name: "Given3", middle_name: "Imported" });
  });

  it("reports a run against a directory that cannot be reached as failed, with why", async () => {
    await importDocument({ directories: [directory()] }, {});
    await slapd.stop();
    const { runId, status } = await syncDirectory("corp", undefined, { subject: "admin" }, { wait: true });
    expect(status).toBe("failed");
    expect((await findRun(runId))!.error).toMatch(/connect|ECONNREFUSED|closed/i);
    expect(await t.db.prisma.securityEvent.count({ where: { type: "directory.sync_failed" } })).toBe(1);
    // Counted for the scrape, by kind and outcome.
    const histogram = await metrics().registry.getSingleMetric("idp_directory_sync_duration_seconds")!.get();
    expect((histogram.values as { metricName?: string; labels: Record<string, unknown>; value: number }[]).find((v) => v.metricName === "idp_directory_sync_duration_seconds_count" && v.labels.kind === "full" && v.labels.status === "failed")!.value).toBeGreaterThanOrEqual(1);
  });
});
