import type { Session } from "next-auth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importDocument } from "../../server/import/import.service.ts";
import { ensureBuiltinRights } from "../../server/rights/definitions.service.ts";
import { appRouter } from "../../server/trpc/root.ts";
import { bootstrapAdmin } from "../../server/users/admin.service.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

type TFailure = { code?: string; cause?: { code?: string; details?: { items?: { pos: string }[] } } };
const failure = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e as TFailure);
const KINDS: { subjectKinds: ("user" | "application")[]; objectKinds: ("user" | "application")[] } = { subjectKinds: ["user", "application"], objectKinds: ["user", "application"] };
const grantRecord = { subject: "rc-anna", object: "rc-crm", objectType: "its" as const, rights: ["rc_reports"] };

describe.each(DB_KINDS)("rights in the console on %s", (kind) => {
  let t: TTestDatabase;
  let admin: ReturnType<typeof appRouter.createCaller>;
  let adminId: string;

  beforeAll(async () => {
    t = await installTestDatabase(kind);
    await ensureBuiltinRights();
    await importDocument(
      {
        users: [{ sub: "rc-anna", attributes: { given_name: "Anna", family_name: "Rightsova" } }, { sub: "rc-boris" }],
        clients: [{ id: "rc-crm", name: "Rights CRM", secret: "rc-crm-secret-1234567890", scopes: [] }],
      },
      {},
    );
    await bootstrapAdmin({ password: "admin-password-1", embedded: true });
    adminId = (await t.db.prisma.user.findUniqueOrThrow({ where: { login: "admin" } })).id;
    admin = appRouter.createCaller({ session: { user: { id: adminId }, expires: "2999-01-01T00:00:00Z" } as Session, ip: "203.0.113.9", userAgent: "AdminBrowser" });
  });
  afterAll(async () => t?.close());

  it("creates a definition once, edits it, keeps the built-ins' kinds, and records the administrator", async () => {
    const created = await admin.console.rights.saveDefinition({ name: "rc_reports", create: true, description: { en: "Reports", ru: "Отчёты" }, ...KINDS });
    expect(created).toMatchObject({ name: "rc_reports", builtin: false, grants: 0 });
    expect((await failure(admin.console.rights.saveDefinition({ name: "rc_reports", create: true, description: { en: "", ru: "" }, ...KINDS })))?.cause?.code).toBe("rights.definition_exists");
    const edited = await admin.console.rights.saveDefinition({ name: "rc_reports", create: false, description: { en: "Read reports", ru: "Чтение отчётов" }, ...KINDS });
    expect(edited.description).toEqual({ en: "Read reports", ru: "Чтение отчётов" });
    const retype = { name: "change_password", create: false, description: { en: "", ru: "" }, subjectKinds: ["application" as const], objectKinds: ["user" as const] };
    expect((await failure(admin.console.rights.saveDefinition(retype)))?.cause?.code).toBe("rights.builtin");
    const bad = await failure(admin.console.rights.saveDefinition({ name: "rc bad", create: true, description: { en: "", ru: "" }, subjectKinds: [], objectKinds: ["user"] }));
    expect(bad?.code).toBe("BAD_REQUEST");
    const names = (await admin.console.rights.definitions()).map((d) => d.name);
    expect(names).toEqual(expect.arrayContaining(["change_attrs", "change_password", "rc_reports"]));
    const events = await t.db.prisma.securityEvent.findMany({ where: { type: { in: ["right.defined", "right.definition_changed"] } }, orderBy: { id: "asc" } });
    expect(events.filter((e) => (e.params as { right?: string }).right === "rc_reports").map((e) => [e.type, e.subject, e.params])).toEqual([
      ["right.defined", adminId, expect.objectContaining({ by: "console", admin: adminId })],
      ["right.definition_changed", adminId, expect.objectContaining({ by: "console", admin: adminId })],
    ]);
  });

  it("finds users and applications to pick by what is typed", async () => {
    expect(await admin.console.rights.findParties({ type: "user", search: "rightsov" })).toEqual([{ type: "user", id: "rc-anna", ext: "", label: "Anna Rightsova" }]);
    // A sub is not a searchable attribute: typed whole, it is found all the same.
    expect(await admin.console.rights.findParties({ type: "user", search: "rc-boris" })).toEqual([{ type: "user", id: "rc-boris", ext: "", label: "" }]);
    expect(await admin.console.rights.findParties({ type: "its", search: "rights crm" })).toEqual([{ type: "its", id: "rc-crm", ext: "", label: "Rights CRM" }]);
    expect(await admin.console.rights.findParties({ type: "its", search: "no-such-app" })).toEqual([]);
  });

  it("grants with tags, shows the right from both sides, and revokes one tag, then the last", async () => {
    await admin.console.rights.grant({ ...grantRecord, tags: ["alpha", "beta"] });
    const ofAnna = await admin.console.rights.browse({ type: "user", id: "rc-anna" });
    expect(ofAnna).toEqual({ of: [{ party: { type: "its", id: "rc-crm", ext: "" }, rights: [{ name: "rc_reports", tags: ["alpha", "beta"] }] }], on: [], people: { "rc-anna": { name: "Anna Rightsova", login: null, email: null } } });
    const onCrm = await admin.console.rights.browse({ type: "its", id: "rc-crm" });
    expect(onCrm).toEqual({ of: [], on: [{ party: { type: "user", id: "rc-anna", ext: "" }, rights: [{ name: "rc_reports", tags: ["alpha", "beta"] }] }], people: { "rc-anna": { name: "Anna Rightsova", login: null, email: null } } });
    expect((await admin.console.rights.definitions()).find((d) => d.name === "rc_reports")?.grants).toBe(1);

    await admin.console.rights.revoke({ ...grantRecord, tags: ["alpha"] });
    expect((await admin.console.rights.browse({ type: "user", id: "rc-anna" })).of).toEqual([{ party: { type: "its", id: "rc-crm", ext: "" }, rights: [{ name: "rc_reports", tags: ["beta"] }] }]);
    await admin.console.rights.revoke({ ...grantRecord, tags: ["beta"] });
    expect(await admin.console.rights.browse({ type: "its", id: "rc-crm" })).toEqual({ of: [], on: [], people: {} });

    const events = await t.db.prisma.securityEvent.findMany({ where: { type: { in: ["rights.granted", "rights.revoked"] }, subject: "rc-anna" }, orderBy: { id: "asc" } });
    expect(events.map((e) => [e.type, (e.params as { tags: string[] }).tags, e.ip])).toEqual([
      ["rights.granted", ["alpha", "beta"], "203.0.113.9"],
      ["rights.revoked", ["alpha"], "203.0.113.9"],
      ["rights.revoked", ["beta"], "203.0.113.9"],
    ]);
    expect(events[0]!.params).toMatchObject({ by: "console", admin: adminId, actingUser: adminId, objectType: "its" });
  });

  it("refuses what the REST API refuses, with the same codes and field items, changing nothing", async () => {
    const code = async (p: Promise<unknown>) => (await failure(p))?.cause?.code;
    expect(await code(admin.console.rights.grant({ ...grantRecord, object: "no-such-app", tags: ["x"] }))).toBe("rights.unknown_rp");
    expect(await code(admin.console.rights.grant({ ...grantRecord, subject: "nobody", tags: ["x"] }))).toBe("rights.unknown_user");
    expect(await code(admin.console.rights.grant({ ...grantRecord, rights: ["rc_undefined"], tags: ["x"] }))).toBe("rights.unknown_right");
    expect(await code(admin.console.rights.grant({ subject: "rc-anna", object: "rc-crm", objectType: "its", rights: ["change_password"], tags: ["x"] }))).toBe("rights.kind_not_allowed");
    expect(await code(admin.console.rights.browse({ type: "user", id: "nobody" }))).toBe("rights.unknown_user");
    const empty = await failure(admin.console.rights.grant({ ...grantRecord, tags: [] }));
    expect(empty?.code).toBe("BAD_REQUEST");
    expect(await t.db.prisma.rightGrant.count({ where: { subjectId: "rc-anna" } })).toBe(0);
  });

  it("deletes a definition in use only when forced, with its grants", async () => {
    await admin.console.rights.grant({ ...grantRecord, tags: ["keep"] });
    await admin.console.rights.grant({ subject: "rc-boris", object: "rc-anna", rights: ["rc_reports"], tags: ["one", "two"] });
    expect((await admin.console.rights.definitions()).find((d) => d.name === "rc_reports")?.grants).toBe(2);
    expect((await failure(admin.console.rights.removeDefinition({ name: "rc_reports" })))?.cause?.code).toBe("rights.definition_in_use");
    expect((await failure(admin.console.rights.removeDefinition({ name: "change_attrs", force: true })))?.cause?.code).toBe("rights.builtin");
    await admin.console.rights.removeDefinition({ name: "rc_reports", force: true });
    expect((await admin.console.rights.definitions()).map((d) => d.name)).not.toContain("rc_reports");
    expect(await admin.console.rights.browse({ type: "user", id: "rc-anna" })).toEqual({ of: [], on: [], people: { "rc-anna": { name: "Anna Rightsova", login: null, email: null } } });
    const deleted = await t.db.prisma.securityEvent.findFirst({ where: { type: "right.definition_deleted" } });
    expect(deleted?.params).toMatchObject({ right: "rc_reports", force: true, revokedGrants: 2, by: "console", admin: adminId });
  });

  it("answers nobody without a console session", async () => {
    const anonymous = appRouter.createCaller({ session: null });
    expect((await failure(anonymous.console.rights.definitions()))?.code).toBe("UNAUTHORIZED");
    expect((await failure(anonymous.console.rights.grant({ ...grantRecord, tags: ["x"] })))?.code).toBe("UNAUTHORIZED");
  });
});
