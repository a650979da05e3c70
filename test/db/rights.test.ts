import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../../server/errors/app-error.ts";
import { importDocument } from "../../server/import/import.service.ts";
import { inTransaction } from "../../server/db/index.ts";
import { ensureBuiltinRights, listDefinitions, putDefinition, readDefinition, removeDefinition } from "../../server/rights/definitions.service.ts";
import { changeRights } from "../../server/rights/grants.service.ts";
import { holdsRight, rightsOf, rightsOn, rightsOnV4 } from "../../server/rights/listings.service.ts";
import type { TRightRecord } from "../../server/rights/rights.schemas.ts";
import { createAccount, deleteAccount, readAccount } from "../../server/users/users.service.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

const admin = { subject: "test-admin", clientId: "rights-app" };
let seq = 0;
const unique = (p: string) => `${p}${Date.now().toString(36)}${(seq++).toString(36)}`;

async function newUser(): Promise<string> {
  const created = await inTransaction((tx) => createAccount({ attrs: { sub: unique("r-") }, passwordHash: null }, { contactFlag: "vrf", allowed: null }, tx));
  return created.id;
}

/**
 * The AppError a call ends with. Pass the call as a function when it may answer from memory
 * (maybe-promise.ts): it then throws at once instead of rejecting.
 */
async function code(p: Promise<unknown> | (() => unknown)): Promise<{ code: string; params?: Record<string, unknown> }> {
  const e = await Promise.resolve()
    .then(() => (typeof p === "function" ? p() : p))
    .then(() => undefined, (x: unknown) => x);
  expect(e).toBeInstanceOf(AppError);
  return { code: (e as AppError).code, params: (e as AppError).details.params };
}

const record = (r: Partial<TRightRecord> & Pick<TRightRecord, "subject" | "object">): TRightRecord => ({ rights: ["change_password"], tags: ["t"], ...r });

describe.each(DB_KINDS)("access rights on %s", (kind) => {
  let t: TTestDatabase;
  beforeAll(async () => {
    t = await installTestDatabase(kind);
    await ensureBuiltinRights();
    await importDocument({ clients: [{ id: "rights-app", name: "Rights", secret: "rights-app-secret", scopes: [] }] }, admin);
  });
  afterAll(async () => t?.close());

  it("creates the built-in rights once, and keeps them user on user", async () => {
    expect(await ensureBuiltinRights()).toBe(0);
    expect(await readDefinition("change_password")).toMatchObject({ builtin: true, subjectKinds: ["user"], objectKinds: ["user"], grants: 0 });
    expect((await code(putDefinition("change_attrs", { description: { ru: "", en: "" }, subjectKinds: ["application"], objectKinds: ["user"] }, admin))).code).toBe("rights.builtin");
    const changed = await putDefinition("change_attrs", { description: { ru: "Атрибуты", en: "Attributes" }, subjectKinds: ["user"], objectKinds: ["user"] }, admin);
    expect(changed).toMatchObject({ builtin: true, description: { ru: "Атрибуты", en: "Attributes" } });
    expect((await code(removeDefinition("change_password", true, admin))).code).toBe("rights.builtin");
  });

  it("adds tags, removes only the listed ones, and drops the right with its last tag", async () => {
    const [a, b] = [await newUser(), await newUser()];
    await changeRights("granted", record({ subject: a, object: b, tags: ["x", "y"] }), admin);
    await changeRights("granted", record({ subject: a, object: b, tags: ["y", "z"] }), admin);
    expect(await rightsOf("user", a)).toEqual({ [b]: { change_password: ["x", "y", "z"] } });
    await changeRights("revoked", record({ subject: a, object: b, tags: ["x", "z"] }), admin);
    expect(await rightsOf("user", a)).toEqual({ [b]: { change_password: ["y"] } });
    expect(await rightsOn("user", b)).toEqual({ [a]: ["change_password"] });
    await changeRights("revoked", record({ subject: a, object: b, tags: ["y"] }), admin);
    expect(await rightsOf("user", a)).toEqual({});
    expect(await rightsOn("user", b)).toEqual({});
  });

  it("tells whether a subject holds a right on an object, as the slave-account operations ask", async () => {
    const [master, slave] = [await newUser(), await newUser()];
    const pair = [{ type: "user", id: master }, { type: "user", id: slave }] as const;
    expect(await holdsRight(...pair, "change_password")).toBe(false);
    await changeRights("granted", record({ subject: master, object: slave, tags: ["boss"] }), admin);
    expect(await holdsRight(...pair, "change_password")).toBe(true);
    expect(await holdsRight(...pair, "change_attrs")).toBe(false);
    expect(await holdsRight({ type: "user", id: slave }, { type: "user", id: master }, "change_password")).toBe(false);
    await changeRights("revoked", record({ subject: master, object: slave, tags: ["boss"] }), admin);
    expect(await holdsRight(...pair, "change_password")).toBe(false);
    expect(await holdsRight({ type: "user", id: "ghost" }, { type: "user", id: slave }, "change_password")).toBe(false);
  });

  it("records definition changes as security events, and lists definitions with usage counts", async () => {
    const name = unique("ev_");
    await putDefinition(name, { description: { ru: "", en: "" }, subjectKinds: ["user"], objectKinds: ["user"] }, admin);
    await putDefinition(name, { description: { ru: "р", en: "e" }, subjectKinds: ["user"], objectKinds: ["user"] }, admin);
    await removeDefinition(name, false, admin);
    const events = await t.db.prisma.securityEvent.findMany({ where: { type: { startsWith: "right." } }, orderBy: { id: "asc" }, select: { type: true, clientId: true, params: true } });
    expect(events.filter((e) => (e.params as { right?: string }).right === name)).toEqual([
      { type: "right.defined", clientId: "rights-app", params: { right: name, subjectKinds: ["user"], objectKinds: ["user"] } },
      { type: "right.definition_changed", clientId: "rights-app", params: { right: name, subjectKinds: ["user"], objectKinds: ["user"] } },
      { type: "right.definition_deleted", clientId: "rights-app", params: { right: name, force: false, revokedGrants: 0 } },
    ]);
    const all = await listDefinitions();
    expect(all.map((d) => d.name)).toEqual(expect.arrayContaining(["change_attrs", "change_password"]));
    expect(all.every((d) => typeof d.grants === "number")).toBe(true);
  });

  it("refuses unknown rights, users, applications and groups, and kinds the definition does not allow", async () => {
    const a = await newUser();
    expect(await code(changeRights("granted", record({ subject: a, object: a, rights: ["nope"] }), admin))).toEqual({ code: "rights.unknown_right", params: { right: "nope" } });
    expect(await code(changeRights("granted", record({ subject: "ghost", object: a }), admin))).toEqual({ code: "rights.unknown_user", params: { userId: "ghost" } });
    expect(await code(changeRights("granted", record({ subject: a, object: "ghost-app", objectType: "its" }), admin))).toEqual({ code: "rights.unknown_rp", params: { rpId: "ghost-app" } });
    expect((await code(changeRights("granted", record({ subject: a, object: "g1", objectType: "grps" }), admin))).code).toBe("rights.unknown_group");
    expect((await code(changeRights("granted", record({ subject: "rights-app", subjectType: "its", object: a }), admin))).code).toBe("rights.kind_not_allowed");
    expect(await rightsOf("user", a)).toEqual({});
    expect((await code(() => rightsOf("user", "ghost"))).code).toBe("rights.unknown_user");
    expect((await code(() => rightsOn("its", "ghost-app"))).code).toBe("rights.unknown_rp");
  });

  it("refuses to delete a granted definition unless forced; forced, its grants go with it", async () => {
    const [a, b] = [await newUser(), await newUser()];
    const name = unique("audit_");
    await putDefinition(name, { description: { ru: "", en: "" }, subjectKinds: ["user", "application"], objectKinds: ["user", "application"] }, admin);
    await changeRights("granted", record({ subject: a, object: b, rights: [name], tags: ["one", "two"] }), admin);
    await changeRights("granted", record({ subject: "rights-app", subjectType: "its", object: b, rights: [name] }), admin);
    expect((await readDefinition(name)).grants).toBe(2);
    expect(await code(removeDefinition(name, false, admin))).toEqual({ code: "rights.definition_in_use", params: { right: name, grants: 2 } });
    expect(await rightsOn("user", b)).toEqual({ [a]: [name], "its|rights-app": [name] });
    await removeDefinition(name, true, admin);
    expect(await rightsOn("user", b)).toEqual({});
    expect((await code(readDefinition(name))).code).toBe("rights.definition_not_found");
  });

  it("drops an account's grants, both ways, when the account is deleted", async () => {
    const [a, b, c] = [await newUser(), await newUser(), await newUser()];
    await changeRights("granted", record({ subject: a, object: b }), admin);
    await changeRights("granted", record({ subject: b, object: c }), admin);
    expect(await rightsOn("user", c)).toEqual({ [b]: ["change_password"] });
    await deleteAccount((await readAccount(b)).instanceId, { actor: admin });
    expect(await rightsOf("user", a)).toEqual({});
    expect(await rightsOn("user", c)).toEqual({});
    const left = await t.db.prisma.rightGrant.count({ where: { OR: [{ subjectId: b }, { objectId: b }] } });
    expect(left).toBe(0);
  });

  it("leaves no grant behind when an account or a definition is deleted while grants race in", async () => {
    const [a, b] = [await newUser(), await newUser()];
    const name = unique("race_");
    await putDefinition(name, { description: { ru: "", en: "" }, subjectKinds: ["user"], objectKinds: ["user"] }, admin);
    const grants = Array.from({ length: 12 }, (_, i) => changeRights("granted", record({ subject: a, object: b, rights: ["change_attrs", name], tags: [`t${i}`] }), admin));
    const outcomes = await Promise.allSettled([
      ...grants,
      removeDefinition(name, true, admin),
      readAccount(b).then((acc) => deleteAccount(acc.instanceId, { actor: admin })),
    ]);
    for (const o of outcomes.slice(0, 12)) {
      if (o.status === "rejected") expect(["rights.unknown_right", "rights.unknown_user"]).toContain((o.reason as AppError).code);
    }
    expect(outcomes.slice(12).map((o) => o.status)).toEqual(["fulfilled", "fulfilled"]);
    expect(await t.db.prisma.rightGrant.count({ where: { OR: [{ objectId: b }, { rightName: name }] } })).toBe(0);
  });

  it("never lets an unforced delete take away grants that were confirmed", async () => {
    const [a, b] = [await newUser(), await newUser()];
    const name = unique("keep_");
    await putDefinition(name, { description: { ru: "", en: "" }, subjectKinds: ["user"], objectKinds: ["user"] }, admin);
    const grants = Array.from({ length: 12 }, (_, i) => changeRights("granted", record({ subject: a, object: b, rights: [name], tags: [`t${i}`] }), admin));
    const [deleted, ...granted] = await Promise.allSettled([removeDefinition(name, false, admin), ...grants]);
    const confirmed = granted.filter((g) => g.status === "fulfilled").length;
    const left = await t.db.prisma.rightGrant.count({ where: { rightName: name } });
    if (deleted.status === "fulfilled") {
      expect([confirmed, left]).toEqual([0, 0]);
    } else {
      expect((deleted.reason as AppError).code).toBe("rights.definition_in_use");
      expect(left).toBe(confirmed);
    }
  });

  it("pages the v4 listing by subject with a keyset cursor", async () => {
    const object = await newUser();
    const subjects = [await newUser(), await newUser(), await newUser()];
    for (const s of subjects) await changeRights("granted", record({ subject: s, object, tags: ["a", "b"] }), admin);
    const first = await rightsOnV4(object, 2);
    expect(first.items).toHaveLength(2);
    expect(first.items[0]).toMatchObject({ subjectType: "user", rights: [{ name: "change_password", tags: ["a", "b"] }] });
    const second = await rightsOnV4(object, 2, first.next);
    expect(second.next).toBeUndefined();
    expect([...first.items, ...second.items].map((i) => i.subject)).toEqual([...subjects].sort());
    expect((await code(rightsOnV4(object, 2, "garbage"))).code).toBe("request.invalid_values");
  });

  it("imports a rights section, and a second import changes nothing", async () => {
    const doc = { rights: [{ name: unique("imp_"), description: { ru: "р", en: "e" }, subjectKinds: ["user"], objectKinds: ["group"] }] };
    expect((await importDocument(doc, admin)).rights.created).toEqual([doc.rights[0]!.name]);
    expect((await importDocument(doc, admin)).rights.unchanged).toEqual([doc.rights[0]!.name]);
    const bad = await code(importDocument({ rights: [{ name: "bad name", subjectKinds: ["robot"], objectKinds: [] }] }, admin));
    expect(bad.code).toBe("import.invalid_document");
    const builtin = await importDocument({ rights: [{ name: "change_password", subjectKinds: ["application"], objectKinds: ["user"] }] }, admin).catch((e: AppError) => e);
    expect(builtin).toBeInstanceOf(AppError);
    expect((builtin as AppError).details.items).toEqual([{ error: "wrong_value", desc: expect.stringContaining("built in"), pos: "$.rights[0].subjectKinds" }]);
  });

  it("ends parallel grants and revokes of tags on one right as a serial order would", async () => {
    const [a, b] = [await newUser(), await newUser()];
    const tags = Array.from({ length: 30 }, (_, i) => `t${i}`);
    await Promise.all(tags.map((tag) => changeRights("granted", record({ subject: a, object: b, tags: [tag] }), admin)));
    expect([...(await rightsOf("user", a))[b]!.change_password!].sort()).toEqual([...tags].sort());
    const more = Array.from({ length: 15 }, (_, i) => `u${i}`);
    await Promise.all([
      ...tags.slice(1).map((tag) => changeRights("revoked", record({ subject: a, object: b, tags: [tag] }), admin)),
      ...more.map((tag) => changeRights("granted", record({ subject: a, object: b, tags: [tag] }), admin)),
    ]);
    expect([...(await rightsOf("user", a))[b]!.change_password!].sort()).toEqual(["t0", ...more].sort());
    await Promise.all(["t0", ...more].map((tag) => changeRights("revoked", record({ subject: a, object: b, tags: [tag] }), admin)));
    expect(await rightsOf("user", a)).toEqual({});
  });
});
