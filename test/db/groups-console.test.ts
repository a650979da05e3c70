import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importDocument } from "../../server/import/import.service.ts";
import { ensureBuiltinRights } from "../../server/rights/definitions.service.ts";
import { appRouter } from "../../server/trpc/root.ts";
import { adminCaller, type TConsoleCaller } from "../support/console-caller.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

type TFailure = { code?: string; cause?: { code?: string; details?: { params?: Record<string, unknown>; items?: { pos: string }[] } } };
const failure = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e as TFailure);
const code = async (p: Promise<unknown>) => (await failure(p))?.cause?.code;

const ORGS = {
  name: "gc_orgs",
  description: { en: "Organisations", ru: "Организации" },
  attributes: [
    { name: "title", type: "string" as const, required: true, unique: true, maxLength: 20 },
    { name: "size", type: "number" as const, required: false },
  ],
};

describe.each(DB_KINDS)("groups in the console on %s", (kind) => {
  let t: TTestDatabase;
  let admin: TConsoleCaller;
  let adminId: string;

  beforeAll(async () => {
    t = await installTestDatabase(kind);
    await ensureBuiltinRights();
    await importDocument({ users: [{ sub: "gc-anna", attributes: { given_name: "Анна", family_name: "Группова" } }, { sub: "gc-boris" }, { sub: "gc-vera" }] }, {});
    ({ admin, adminId } = await adminCaller(t, "203.0.113.7"));
  });
  afterAll(async () => t?.close());

  it("creates a profile once, edits its schema, refuses a bad schema, and records the administrator", async () => {
    expect(await admin.console.groups.saveProfile({ ...ORGS, create: true })).toMatchObject({ name: "gc_orgs", groups: 0, attributes: [{ name: "title", unique: true }, { name: "size" }] });
    expect(await code(admin.console.groups.saveProfile({ ...ORGS, create: true }))).toBe("group.profile_exists");
    // Of parallel creations of one name, exactly one succeeds.
    const racing = await Promise.all([1, 2, 3].map(() => failure(admin.console.groups.saveProfile({ ...ORGS, name: "gc_race", create: true }))));
    expect(racing.filter((f) => f === undefined)).toHaveLength(1);
    expect(racing.filter((f) => f?.cause?.code === "group.profile_exists")).toHaveLength(2);
    await admin.console.groups.removeProfile({ name: "gc_race" });
    expect(await code(admin.console.groups.saveProfile({ ...ORGS, name: "gc_none", create: false }))).toBe("group.profile_not_found");
    const edited = await admin.console.groups.saveProfile({ ...ORGS, description: { en: "Orgs", ru: "Орги" }, create: false });
    expect(edited.description).toEqual({ en: "Orgs", ru: "Орги" });
    const dup = await failure(admin.console.groups.saveProfile({ ...ORGS, name: "gc_bad", attributes: [ORGS.attributes[0]!, ORGS.attributes[0]!], create: true }));
    expect(dup?.code).toBe("BAD_REQUEST");
    const listUnique = await failure(admin.console.groups.saveProfile({ name: "gc_bad", attributes: [{ name: "tags", type: "string_list", required: false, unique: true }], create: true }));
    expect(listUnique?.code).toBe("BAD_REQUEST");
    expect((await admin.console.groups.profiles()).map((p) => p.name)).toEqual(["gc_orgs"]);
    const events = await t.db.prisma.securityEvent.findMany({ where: { type: { startsWith: "group.profile_" }, params: { path: ["profile"], equals: "gc_orgs" } }, orderBy: { id: "asc" } });
    expect(events.map((e) => [e.type, e.subject, e.ip])).toEqual([
      ["group.profile_created", adminId, "203.0.113.7"],
      ["group.profile_changed", adminId, "203.0.113.7"],
    ]);
    expect(events[0]!.params).toMatchObject({ profile: "gc_orgs", attributes: ["title", "size"], by: "console", admin: adminId });
  });

  it("creates groups checked against the schema, lists them by id prefix in pages, and guards edits by instanceId", async () => {
    const bad = await failure(admin.console.groups.create({ profile: "gc_orgs", id: "gc-a1", attrs: { size: "many" } }));
    expect(bad?.cause?.code).toBe("request.invalid_values");
    expect(bad?.cause?.details?.items?.map((i) => i.pos).sort()).toEqual(["size", "title"]);
    expect(await t.db.prisma.group.count({ where: { profile: "gc_orgs" } })).toBe(0);
    for (const [id, title] of [["gc-a1", "Alpha"], ["gc-a2", "Beta"], ["gc-b1", "Gamma"]]) {
      expect(await admin.console.groups.create({ profile: "gc_orgs", id: id!, attrs: { title, size: 3 } })).toBe(id);
    }
    expect(await code(admin.console.groups.create({ profile: "gc_orgs", id: "gc-a1", attrs: { title: "Other" } }))).toBe("group.exists");
    expect(await code(admin.console.groups.create({ profile: "gc_orgs", id: "gc-c1", attrs: { title: "alpha" } }))).toBe("request.invalid_values");
    expect(await code(admin.console.groups.create({ profile: "gc_none", id: "gc-c1", attrs: {} }))).toBe("group.profile_not_found");

    const first = await admin.console.groups.list({ profile: "gc_orgs", prefix: "gc-a", limit: 1 });
    expect(first).toEqual({ items: [{ id: "gc-a1", instanceId: expect.any(String), attrs: { title: "Alpha", size: 3 }, members: 0 }], nextCursor: "gc-a1" });
    const second = await admin.console.groups.list({ profile: "gc_orgs", prefix: "gc-a", after: "gc-a1", limit: 1 });
    expect([second.items.map((g) => g.id), second.nextCursor]).toEqual([["gc-a2"], null]);
    expect((await admin.console.groups.list({ profile: "gc_orgs" })).items.map((g) => g.id)).toEqual(["gc-a1", "gc-a2", "gc-b1"]);

    const read = await admin.console.groups.get({ profile: "gc_orgs", id: "gc-a1" });
    expect(read).toMatchObject({ id: "gc-a1", profile: "gc_orgs", attrs: { title: "Alpha", size: 3 }, memberCount: 0 });
    const next = await admin.console.groups.update({ profile: "gc_orgs", id: "gc-a1", attrs: { title: "Alpha 2" }, instanceId: read.instanceId });
    expect(next).not.toBe(read.instanceId);
    // A second edit from the same read is stale and changes nothing.
    expect(await code(admin.console.groups.update({ profile: "gc_orgs", id: "gc-a1", attrs: { title: "Lost" }, instanceId: read.instanceId }))).toBe("group.stale_instance");
    expect((await admin.console.groups.get({ profile: "gc_orgs", id: "gc-a1" })).attrs).toEqual({ title: "Alpha 2" });
    expect(await code(admin.console.groups.get({ profile: "gc_orgs", id: "gc-zz" }))).toBe("group.not_found");
  });

  it("adds members by sub, pages them, removes one, and refuses an unknown account", async () => {
    const ref = { profile: "gc_orgs", id: "gc-a1" };
    for (const sub of ["gc-vera", "gc-anna", "gc-boris"]) await admin.console.groups.addMember({ ...ref, sub });
    expect(await code(admin.console.groups.addMember({ ...ref, sub: "gc-nobody" }))).toBe("group.unknown_user");
    const page = await admin.console.groups.members({ ...ref, limit: 2 });
    // Each member with how the console names them: a name where the account has one.
    expect(page).toEqual({
      items: ["gc-anna", "gc-boris"],
      people: { "gc-anna": { name: "Анна Группова", login: null, email: null }, "gc-boris": { name: null, login: null, email: null } },
      total: 3,
      nextCursor: "gc-boris",
    });
    expect(await admin.console.groups.members({ ...ref, after: "gc-boris", limit: 2 })).toEqual({ items: ["gc-vera"], people: { "gc-vera": { name: null, login: null, email: null } }, total: 3, nextCursor: null });
    await admin.console.groups.removeMember({ ...ref, sub: "gc-boris" });
    expect((await admin.console.groups.members(ref)).items).toEqual(["gc-anna", "gc-vera"]);
    expect((await admin.console.groups.get(ref)).memberCount).toBe(2);
    const removed = await t.db.prisma.securityEvent.findFirst({ where: { type: "group.member_removed", subject: "gc-boris" } });
    expect(removed?.params).toMatchObject({ group: "gc-a1", member: "gc-boris", actingUser: adminId });
    expect(await code(admin.console.groups.members({ profile: "gc_orgs", id: "gc-nope" }))).toBe("group.not_found");
  });

  it("lets the rights browser pick a group, grant on it, and loses the grant with the group", async () => {
    await admin.console.rights.saveDefinition({ name: "gc_manage", create: true, description: { en: "", ru: "" }, subjectKinds: ["user"], objectKinds: ["group"] });
    expect(await admin.console.rights.findParties({ type: "grps", search: "gc-a" })).toEqual([
      { type: "grps", id: "gc-a1", ext: "gc_orgs", label: "gc_orgs" },
      { type: "grps", id: "gc-a2", ext: "gc_orgs", label: "gc_orgs" },
    ]);
    const record = { subject: "gc-anna", object: "gc-a2", objectType: "grps" as const, objectExt: "gc_orgs", rights: ["gc_manage"], tags: ["ops"] };
    await admin.console.rights.grant(record);
    expect(await admin.console.rights.browse({ type: "grps", id: "gc-a2", ext: "gc_orgs" })).toEqual({
      of: null,
      on: [{ party: { type: "user", id: "gc-anna", ext: "" }, rights: [{ name: "gc_manage", tags: ["ops"] }] }],
      people: { "gc-anna": { name: "Анна Группова", login: null, email: null } },
    });
    await admin.console.groups.remove({ profile: "gc_orgs", id: "gc-a2" });
    expect(await t.db.prisma.rightGrant.count({ where: { objectId: "gc-a2" } })).toBe(0);
    expect((await admin.console.rights.browse({ type: "user", id: "gc-anna" })).of).toEqual([]);
    expect(await code(admin.console.groups.remove({ profile: "gc_orgs", id: "gc-a2" }))).toBe("group.not_found");
  });

  it("deletes a profile only once it has no groups, saying how many it has", async () => {
    expect((await admin.console.groups.profiles()).find((p) => p.name === "gc_orgs")?.groups).toBe(2);
    const inUse = await failure(admin.console.groups.removeProfile({ name: "gc_orgs" }));
    expect([inUse?.cause?.code, inUse?.cause?.details?.params]).toEqual(["group.profile_in_use", { profile: "gc_orgs", groups: 2 }]);
    for (const id of ["gc-a1", "gc-b1"]) await admin.console.groups.remove({ profile: "gc_orgs", id });
    await admin.console.groups.removeProfile({ name: "gc_orgs" });
    expect(await admin.console.groups.profiles()).toEqual([]);
    expect(await code(admin.console.groups.removeProfile({ name: "gc_orgs" }))).toBe("group.profile_not_found");
    // The cache forgot it too: a group cannot be created in it any more.
    expect(await code(admin.console.groups.create({ profile: "gc_orgs", id: "gc-x", attrs: { title: "X" } }))).toBe("group.profile_not_found");
  });

  it("answers nobody without a console session", async () => {
    const anonymous = appRouter.createCaller({ session: null });
    expect((await failure(anonymous.console.groups.profiles()))?.code).toBe("UNAUTHORIZED");
    expect((await failure(anonymous.console.groups.addMember({ profile: "gc_orgs", id: "gc-a1", sub: "gc-anna" })))?.code).toBe("UNAUTHORIZED");
  });
});
