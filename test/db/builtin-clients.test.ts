import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { builtinClientSecret, ensureBuiltinClients } from "../../server/clients/builtin-clients.ts";
import { authenticateClient, createClient, rotateClientSecret, setRestPassword, updateClient } from "../../server/clients/clients.service.ts";
import { AppError } from "../../server/errors/app-error.ts";
import { importDocument } from "../../server/import/import.service.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

const ISSUER = "http://idp.test/idp";

async function failureOf(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
}

describe.each(DB_KINDS)("built-in clients of console and portal on %s", (kind) => {
  let t: TTestDatabase;
  beforeEach(async () => {
    t = await installTestDatabase(kind);
  });
  afterEach(async () => t.close());

  const rows = () => t.db.prisma.client.findMany({ orderBy: { id: "asc" } });

  it("creates both as confidential first-party clients whose secret is derived, never stored", async () => {
    expect(await ensureBuiltinClients()).toEqual({ created: ["idp-console", "idp-portal"], updated: [], unchanged: [] });
    const [consoleClient, portal] = await rows();
    expect(consoleClient).toMatchObject({
      id: "idp-console",
      type: "confidential",
      firstParty: true,
      enabled: true,
      grantTypes: ["authorization_code"],
      scopes: [],
      userScopes: [],
      redirectUris: [`${ISSUER}/api/auth/callback/idp-console`],
      postLogoutRedirectUris: [`${ISSUER}/console/sign-in`],
      restPasswordHash: null,
    });
    expect(portal).toMatchObject({
      id: "idp-portal",
      redirectUris: [`${ISSUER}/api/auth/callback/idp-portal`],
      postLogoutRedirectUris: [`${ISSUER}/account`],
    });
    for (const row of [consoleClient!, portal!]) {
      const secret = builtinClientSecret(row.id);
      expect(row.secretHash).toMatch(/^\$argon2id\$/);
      expect(JSON.stringify(row)).not.toContain(secret);
      expect((await authenticateClient(row.id, secret)).ok).toBe(true);
    }
    expect(builtinClientSecret("idp-console")).not.toBe(builtinClientSecret("idp-portal"));
  });

  it("changes nothing when they are as they must be, and repairs them when they are not", async () => {
    await ensureBuiltinClients();
    const before = await rows();
    expect(await ensureBuiltinClients()).toEqual({ created: [], updated: [], unchanged: ["idp-console", "idp-portal"] });
    expect(await rows()).toEqual(before);

    // Changed and deleted behind the server's back (SQL by hand): the next start puts them right.
    await t.db.prisma.client.update({
      where: { id: "idp-console" },
      data: { enabled: false, redirectUris: ["https://evil.example/cb"], secretHash: "$argon2id$v=19$m=19456,t=2,p=1$AAAA$BBBB", firstParty: false },
    });
    await t.db.prisma.client.delete({ where: { id: "idp-portal" } });
    expect(await ensureBuiltinClients()).toEqual({ created: ["idp-portal"], updated: ["idp-console"], unchanged: [] });
    const [repaired] = await rows();
    expect(repaired).toMatchObject({ enabled: true, firstParty: true, redirectUris: [`${ISSUER}/api/auth/callback/idp-console`] });
    expect((await authenticateClient("idp-console", builtinClientSecret("idp-console"))).ok).toBe(true);

    // Disabled alone (the one thing an import keeps as it finds it) is repaired too.
    await t.db.prisma.client.update({ where: { id: "idp-portal" }, data: { enabled: false } });
    expect(await ensureBuiltinClients()).toEqual({ created: [], updated: ["idp-portal"], unchanged: ["idp-console"] });
  });

  it("is refused by the console's operations and by the import document, and left as it was", async () => {
    await ensureBuiltinClients();
    const before = await rows();
    const actor = { subject: "admin" };
    const refusals = [
      updateClient("idp-console", { name: "Mine now", scopes: [], enabled: false }, actor),
      rotateClientSecret("idp-portal", actor),
      setRestPassword("idp-console", true, actor),
      createClient({ id: "idp-portal", name: "Again", scopes: [] }, actor),
    ];
    for (const refusal of refusals) expect((await failureOf(refusal)).code).toBe("client.builtin");

    const doc = { clients: [{ id: "other-app", name: "Other", secret: "other-secret-1", scopes: [] }, { id: "idp-console", name: "Mine", secret: "mine-secret-1", scopes: [] }] };
    const refused = await failureOf(importDocument(doc, {}));
    expect(refused.code).toBe("import.invalid_document");
    expect(refused.details.items).toEqual([{ error: "wrong_value", pos: "$.clients[1].id", desc: expect.stringContaining("built-in client") }]);
    expect(await rows()).toEqual(before);
  });
});
