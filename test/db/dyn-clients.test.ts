import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publishClientChange } from "../../server/clients/client-cache.ts";
import { getClientForAuth } from "../../server/clients/clients.service.ts";
import { bindOnSignIn, registerInstance, UNBOUND_INSTANCE_TTL_MS } from "../../server/dyn-clients/dyn-clients.service.ts";
import type { AppError } from "../../server/errors/app-error.ts";
import { importDocument, importFile } from "../../server/import/import.service.ts";
import { runMaintenance } from "../../server/maintenance/maintenance.ts";
import { IMPORT_FIXTURE } from "../support/fixtures.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

// Dynamically registered instances as stored: what they inherit, who they bind to, and the hourly
// purge of those nobody bound, with the maintenance run's own clock.

const register = (extra: Record<string, unknown> = {}) => registerInstance("mobile-app", { software_id: "mobile-sdk", token_endpoint_auth_method: "none", ...extra });

describe.each(DB_KINDS)("dynamic app instances on %s", (kind) => {
  let t: TTestDatabase;
  beforeAll(async () => {
    t = await installTestDatabase(kind);
    await importFile(IMPORT_FIXTURE, {});
  });
  afterAll(async () => t?.close());

  it("admits dynamic registration in the import only with what instances need: the sign-in grant and the idp_dyn_reg token", async () => {
    const base = { name: "M", secret: "a-secret-1", redirectUris: ["https://m.example.test/cb"], dynamicRegistration: { softwareIds: ["sdk"] } };
    const doc = {
      clients: [
        { ...base, id: "no-token", scopes: [], grantTypes: ["authorization_code"] },
        { ...base, id: "no-sign-in", scopes: ["idp_dyn_reg"], grantTypes: ["client_credentials"] },
        { ...base, id: "twice", scopes: ["idp_dyn_reg"], grantTypes: ["client_credentials", "authorization_code"], dynamicRegistration: { softwareIds: ["a", "a"] } },
      ],
    };
    const error = (await importDocument(doc, {}).then(() => undefined, (e: unknown) => e)) as AppError;
    expect(error.details.items!.map((i) => i.pos).sort()).toEqual(["$.clients[0].dynamicRegistration", "$.clients[1].dynamicRegistration", "$.clients[2].dynamicRegistration.softwareIds"]);
  });

  it("inherits the parent's settings, never its system scopes, and follows the parent's changes", async () => {
    const { client_id } = await register({ client_name: "Phone of Ivanov" });
    const instance = (await getClientForAuth(client_id))!;
    expect(instance).toMatchObject({
      name: "Phone of Ivanov",
      type: "public",
      parentId: "mobile-app",
      scopes: [],
      userScopes: ["idp_api_user"],
      grantTypes: ["authorization_code", "refresh_token"],
      redirectUris: ["https://mobile.example.test/cb", "ru.example.mobile:/oauth2redirect"],
      firstParty: true,
      restPasswordHash: null,
    });
    await t.db.prisma.client.update({ where: { id: "mobile-app" }, data: { enabled: false } });
    await publishClientChange("mobile-app");
    expect((await getClientForAuth(client_id))!.enabled).toBe(false);
    await t.db.prisma.client.update({ where: { id: "mobile-app" }, data: { enabled: true } });
    await publishClientChange("mobile-app");
  });

  it("binds an instance to the first account signing in through it, and refuses another", async () => {
    const { client_id } = await register();
    expect(await bindOnSignIn(client_id, "ivanov")).toBe(true);
    expect(await bindOnSignIn(client_id, "ivanov")).toBe(true);
    expect(await bindOnSignIn(client_id, "petrov")).toBe(false);
    expect(await bindOnSignIn("rp-web", "petrov")).toBe(true);
    const row = await t.db.prisma.client.findUnique({ where: { id: client_id }, select: { boundUserId: true, boundAt: true } });
    expect(row).toMatchObject({ boundUserId: "ivanov", boundAt: expect.any(Date) });
  });

  it("of parallel sign-ins of two accounts through a free instance binds exactly one", async () => {
    const { client_id } = await register();
    const outcomes = await Promise.all(["ivanov", "petrov", "ivanova", "ivanov", "petrov"].map((u) => bindOnSignIn(client_id, u)));
    const { boundUserId } = (await t.db.prisma.client.findUnique({ where: { id: client_id }, select: { boundUserId: true } }))!;
    expect(outcomes).toEqual(["ivanov", "petrov", "ivanova", "ivanov", "petrov"].map((u) => u === boundUserId));
  });

  it("purges instances nobody bound once they are older than the grace period, and keeps bound ones", async () => {
    const free = await register();
    const bound = await register();
    await bindOnSignIn(bound.client_id, "ivanova");
    const ids = async () => (await t.db.prisma.client.findMany({ where: { id: { in: [free.client_id, bound.client_id] } }, select: { id: true } })).map((r) => r.id);

    expect((await runMaintenance()).appInstances).toBe(0);
    expect(await ids()).toHaveLength(2);

    const later = new Date(Date.now() + UNBOUND_INSTANCE_TTL_MS + 60_000);
    expect((await runMaintenance(later)).appInstances).toBeGreaterThanOrEqual(1);
    expect(await ids()).toEqual([bound.client_id]);
    expect(await getClientForAuth(free.client_id)).toBeNull();
  });

  it("deletes an account's instances with the account", async () => {
    const { client_id } = await register();
    await t.db.prisma.user.create({ data: { id: "short-lived", instanceId: "v1" } });
    await bindOnSignIn(client_id, "short-lived");
    await t.db.prisma.user.delete({ where: { id: "short-lived" } });
    expect(await t.db.prisma.client.findUnique({ where: { id: client_id }, select: { id: true } })).toBeNull();
  });
});
