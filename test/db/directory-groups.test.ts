import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findDirectory } from "../../server/directories/directories.repository.ts";
import { syncGroupsAtSignIn } from "../../server/directories/directory-groups.service.ts";
import { syncDirectory } from "../../server/directories/directory-sync.service.ts";
import { findRun } from "../../server/directories/directory-sync.repository.ts";
import { addMembers } from "../../server/groups/members.service.ts";
import { importDocument } from "../../server/import/import.service.ts";
import { BASE_DN, groupDn, groupOfNames, person, personDn, READER, startSlapd, type TSlapd } from "../support/slapd.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

// A synchronised directory's groups against a real slapd: groups made here with the directory's
// memberships, nested groups expanded (a cycle too), a hand-made membership never removed, a member
// removed there removed here by the next incremental run, a group no longer mapped left in place.

const PEOPLE = ["anna", "boris", "vera", "kostya", "dima", "lena"];
// engineering ⊃ backend (nested) ⊃ anna, dima; boris directly in engineering; cyclic-a ⊃ cyclic-b ⊃ cyclic-a.
// A member that is no account (the service account's entry) is left out.
const TREE = [
  groupOfNames("engineering", [personDn("boris"), groupDn("backend")]),
  groupOfNames("backend", [personDn("anna"), personDn("dima")]),
  groupOfNames("cyclic-a", [personDn("vera"), groupDn("cyclic-b"), READER.dn]),
  groupOfNames("cyclic-b", [personDn("kostya"), groupDn("cyclic-a")]),
].join("");

// modifyTimestamp has whole seconds: a change must fall in a later second than the last run's mark to be newer.
const nextSecond = () => new Promise((r) => setTimeout(r, 1_100 - (Date.now() % 1_000)));

describe.each(DB_KINDS)("directory groups on %s", (kind) => {
  let t: TTestDatabase;
  let slapd: TSlapd;
  beforeEach(async () => {
    t = await installTestDatabase(kind);
    slapd = await startSlapd(PEOPLE.map((uid) => person({ uid, password: `pw-${uid}`, givenName: uid, sn: "Example" })).join("") + TREE);
  });
  afterEach(async () => {
    await slapd.close();
    await t.close();
  });

  const directory = (groups: Record<string, unknown> = {}) => ({
    id: "corp", name: "Corporate directory", url: slapd.ldapsUrl, caCert: slapd.caPem, bindDn: READER.dn, bindPassword: READER.password,
    baseDn: `ou=people,${BASE_DN}`, mode: "synchronised",
    groups: { baseDn: `ou=groups,${BASE_DN}`, nesting: "expand", ...groups },
  });
  const sync = async (k?: "full" | "incremental") => {
    const { runId, status } = await syncDirectory("corp", k, { subject: "admin" }, { wait: true, clockMarginMs: 0 });
    expect(status, JSON.stringify(await findRun(runId))).toBe("done");
    return (await findRun(runId))!;
  };
  /** The group's members here: who, and whether the directory made the membership. */
  const members = async (groupId: string) =>
    Object.fromEntries((await t.db.prisma.groupMember.findMany({ where: { groupId }, select: { userId: true, directoryId: true }, orderBy: { userId: "asc" } })).map((m) => [m.userId, m.directoryId ?? "hand"]));

  it("makes the groups with their members, nested groups expanded and a cycle ended; a hand-made membership survives", async () => {
    await importDocument({ directories: [directory()] }, {});
    await nextSecond();
    const full = await sync();
    expect(full).toMatchObject({ kind: "full", created: PEOPLE.length, groupsCreated: 4, groupsUpdated: 0, membersAdded: 3 + 2 + 2 + 2, membersRemoved: 0, failed: 0 });
    const groups = await t.db.prisma.group.findMany({ select: { id: true, profile: true, attrs: true }, orderBy: { id: "asc" } });
    expect(groups.map((g) => g.id)).toEqual(["corp.backend", "corp.cyclic-a", "corp.cyclic-b", "corp.engineering"]);
    expect(groups.find((g) => g.id === "corp.engineering")).toMatchObject({ profile: "directory_groups", attrs: { name: "engineering", dn: groupDn("engineering") } });
    // The profile was made for them, saying whose groups they are.
    expect((await t.db.prisma.groupProfile.findUnique({ where: { name: "directory_groups" }, select: { description: true } }))!.description).toMatchObject({ en: expect.stringContaining("Corporate directory") });
    // Marked as the directory's.
    expect(await t.db.prisma.directoryGroup.count({ where: { directoryId: "corp" } })).toBe(4);
    expect(await members("corp.engineering")).toEqual({ anna: "corp", boris: "corp", dima: "corp" });
    expect(await members("corp.backend")).toEqual({ anna: "corp", dima: "corp" });
    expect(await members("corp.cyclic-a")).toEqual({ kostya: "corp", vera: "corp" });
    expect(await members("corp.cyclic-b")).toEqual({ kostya: "corp", vera: "corp" });
    const added = await t.db.prisma.securityEvent.findFirst({ where: { type: "group.member_added", subject: "boris" }, select: { params: true } });
    expect(added!.params).toMatchObject({ group: "corp.engineering", by: "directory", directory: "corp" });

    // Lena is added by hand; the next runs leave her, and change nothing else.
    await addMembers(undefined, "corp.backend", ["lena"], { subject: "admin" });
    expect(await sync("full")).toMatchObject({ groupsCreated: 0, groupsUpdated: 0, membersAdded: 0, membersRemoved: 0 });
    expect(await sync("incremental")).toMatchObject({ groupsCreated: 0, membersAdded: 0, membersRemoved: 0 });
    expect(await members("corp.backend")).toEqual({ anna: "corp", dima: "corp", lena: "hand" });

    // Added again by hand, a member the directory made becomes the administrator's: the directory no longer removes it.
    await addMembers(undefined, "corp.engineering", ["boris"], { subject: "admin" });
    expect(await members("corp.engineering")).toEqual({ anna: "corp", boris: "hand", dima: "corp" });
    expect(await sync("full")).toMatchObject({ membersAdded: 0, membersRemoved: 0 });
    expect(await members("corp.engineering")).toEqual({ anna: "corp", boris: "hand", dima: "corp" });
  });

  it("never re-points a group at a sign-in to another entry of the same name the person is in", async () => {
    await importDocument({ directories: [directory()] }, {});
    await nextSecond();
    await sync();
    const backend = await t.db.prisma.directoryGroup.findFirst({ where: { groupId: "corp.backend" }, select: { externalId: true } });
    // Lena makes a group of the same name elsewhere under the groups' base, with herself in it, then signs in.
    slapd.modify(`dn: ou=other,ou=groups,${BASE_DN}\nchangetype: add\nobjectClass: organizationalUnit\nou: other\n\ndn: cn=backend,ou=other,ou=groups,${BASE_DN}\nchangetype: add\nobjectClass: groupOfNames\ncn: backend\nmember: ${personDn("lena")}\n`);
    const d = (await findDirectory("corp"))!;
    await syncGroupsAtSignIn(d, personDn("lena"), "lena", { subject: "lena" });
    expect(await t.db.prisma.directoryGroup.findFirst({ where: { groupId: "corp.backend" }, select: { externalId: true } })).toEqual(backend);
    expect(await members("corp.backend")).toEqual({ anna: "corp", dima: "corp" });
  });

  it("removes exactly the membership a member removed there had, at the next incremental run", async () => {
    await importDocument({ directories: [directory()] }, {});
    await nextSecond();
    await sync();
    // Boris is also added by hand to backend, where the directory never had him.
    await addMembers(undefined, "corp.backend", ["boris"], { subject: "admin" });
    await nextSecond();
    slapd.modify(`dn: ${groupDn("backend")}\nchangetype: modify\ndelete: member\nmember: ${personDn("anna")}\n`);
    // Anna's entry did not change: only the group pass sees it.
    const run = await sync("incremental");
    // Out of backend, and so out of engineering, which has her only through backend.
    expect(run).toMatchObject({ kind: "incremental", seen: 0, membersAdded: 0, membersRemoved: 2, failed: 0 });
    expect(await members("corp.backend")).toEqual({ boris: "hand", dima: "corp" });
    expect(await members("corp.engineering")).toEqual({ boris: "corp", dima: "corp" });
    expect(await members("corp.cyclic-a")).toEqual({ kostya: "corp", vera: "corp" });
    const removed = await t.db.prisma.securityEvent.findMany({ where: { type: "group.member_removed" }, select: { subject: true, params: true } });
    expect(removed.map((e) => [e.subject, (e.params as { group: string }).group]).sort()).toEqual([["anna", "corp.backend"], ["anna", "corp.engineering"]]);
  });

  it("takes over no group it did not make, and leaves a group it maps no more in place with its hand-made members", async () => {
    // A hand-made group whose id the directory's engineering would get.
    await importDocument({ groupProfiles: [{ name: "teams" }], groups: [{ id: "corp.engineering", profile: "teams", members: ["admin-made"] }], users: [{ sub: "admin-made" }], directories: [directory()] }, {});
    await nextSecond();
    const run = await sync();
    expect(run).toMatchObject({ groupsCreated: 3, failed: 1, failures: [{ dn: groupDn("engineering"), reason: expect.stringMatching(/exists|taken/i) }] });
    expect(await members("corp.engineering")).toEqual({ "admin-made": "hand" });

    // A second backend in another branch there: refused, not swapped in for the first at every run.
    const other = `cn=backend,ou=more,ou=groups,${BASE_DN}`;
    slapd.modify(`dn: ou=more,ou=groups,${BASE_DN}\nchangetype: add\nobjectClass: organizationalUnit\nou: more\n\ndn: ${other}\nchangetype: add\nobjectClass: groupOfNames\ncn: backend\nmember: ${personDn("vera")}\n`);
    for (let i = 0; i < 2; i++) expect(await sync("full")).toMatchObject({ groupsUpdated: 0, membersAdded: 0, membersRemoved: 0, failed: 2, failures: expect.arrayContaining([{ dn: other, reason: expect.stringMatching(/exists/i) }]) });
    expect(await members("corp.backend")).toEqual({ anna: "corp", dima: "corp" });
    expect((await t.db.prisma.directoryGroup.findUnique({ where: { groupId: "corp.backend" }, select: { dn: true } }))!.dn).toBe(groupDn("backend"));
    slapd.modify(`dn: ${other}\nchangetype: delete\n`);

    // Mapping only backend now: the cyclic groups stay, without the directory's memberships.
    await addMembers(undefined, "corp.cyclic-a", ["lena"], { subject: "admin" });
    await importDocument({ directories: [directory({ only: ["backend"] })] }, {});
    expect(await sync("full")).toMatchObject({ membersRemoved: 4 });
    expect(await members("corp.cyclic-a")).toEqual({ lena: "hand" });
    expect(await members("corp.cyclic-b")).toEqual({});
    expect(await members("corp.backend")).toEqual({ anna: "corp", dima: "corp" });
    expect(await t.db.prisma.group.count({ where: { id: { startsWith: "corp.cyclic" } } })).toBe(2);
  });
});
