import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, deleteClient, getClientForAuth } from "../../server/clients/clients.service.ts";
import { inTransaction } from "../../server/db/index.ts";
import { ensureBuiltinRights, putDefinition } from "../../server/rights/definitions.service.ts";
import { changeRights } from "../../server/rights/grants.service.ts";
import { rightsOf, rightsOn } from "../../server/rights/listings.service.ts";
import { createAccount } from "../../server/users/users.service.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

// Deleting an application leaves nothing behind in any process's memory: the rights granted on it
// are gone from the listings read before (cached), and an application made again under its id starts
// with none; a registered instance older than a re-created parent is no client at all.

const admin = { subject: "test-admin" };

describe.each(DB_KINDS)("deleting a client on %s", (kind) => {
  let t: TTestDatabase;
  beforeAll(async () => {
    t = await installTestDatabase(kind);
    await ensureBuiltinRights();
    await putDefinition("app_admin", { description: { ru: "", en: "" }, subjectKinds: ["user", "application"], objectKinds: ["user", "application"] }, admin);
  });
  afterAll(async () => t?.close());

  it("drops the cached rights of and on it, so a client made again under its id has none", async () => {
    const user = (await inTransaction((tx) => createAccount({ attrs: { sub: "rights-holder" }, passwordHash: null }, { contactFlag: "vrf", allowed: null }, tx))).id;
    await createClient({ id: "doomed-app", name: "Doomed", scopes: [], grantTypes: ["client_credentials"] }, admin);
    await changeRights("granted", { subject: user, object: "doomed-app", objectType: "its", rights: ["app_admin"], tags: ["t"] } as never, admin);
    // Read once, so the listings are in memory.
    expect(await rightsOn("its", "doomed-app")).toEqual({ [user]: ["app_admin"] });
    expect(JSON.stringify(await rightsOf("user", user))).toContain("doomed-app");

    await deleteClient("doomed-app", admin);
    expect(JSON.stringify(await rightsOf("user", user))).not.toContain("doomed-app");
    await createClient({ id: "doomed-app", name: "Reborn", scopes: [], grantTypes: ["client_credentials"] }, admin);
    expect(await rightsOn("its", "doomed-app")).toEqual({});
  });

  it("does not let an instance older than its parent act under a parent made again", async () => {
    await createClient({ id: "parent-app", name: "Parent", scopes: [], grantTypes: ["authorization_code"], redirectUris: ["https://p.example/cb"] }, admin);
    const parentCreated = (await t.db.prisma.client.findUniqueOrThrow({ where: { id: "parent-app" } })).createdAt;
    // An instance row as registration makes it, then (as if left from a deleted parent) dated before it.
    await t.db.prisma.client.create({ data: { id: "parent-app-i1", name: "Instance", type: "public", scopes: [], grantTypes: [], parentId: "parent-app", createdAt: new Date(parentCreated.getTime() - 60_000) } });
    expect(await getClientForAuth("parent-app-i1")).toBeNull();
    await t.db.prisma.client.create({ data: { id: "parent-app-i2", name: "Instance", type: "public", scopes: [], grantTypes: [], parentId: "parent-app", createdAt: new Date(parentCreated.getTime() + 1_000) } });
    expect(await getClientForAuth("parent-app-i2")).toMatchObject({ id: "parent-app-i2", redirectUris: ["https://p.example/cb"] });
  });
});
