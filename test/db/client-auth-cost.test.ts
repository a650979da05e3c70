import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { authenticateClient, authenticateRestClient, createClient, updateClient } from "../../server/clients/clients.service.ts";
import { hashGateState } from "../../server/crypto/hash-gate.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

/*
 * An unknown client id must cost what a known one with a wrong secret costs, or the token endpoint's
 * answer time tells which client ids exist. Counted in secret checks (one argon2 each), not timed.
 */

/** How many secret hashes `fn` computed. */
async function hashesOf(fn: () => Promise<unknown>): Promise<number> {
  const before = hashGateState().done;
  await fn();
  return hashGateState().done - before;
}

describe.each(DB_KINDS)("client authentication costs the same for every refusal on %s", (kind) => {
  let t: TTestDatabase;
  beforeEach(async () => {
    t = await installTestDatabase(kind);
  });
  afterEach(async () => t.close());

  it("checks one hash for a wrong secret, an unknown id, a disabled client and a public one alike", async () => {
    await createClient({ id: "known-app", name: "Known", scopes: [] }, {});
    await createClient({ id: "off-app", name: "Off", scopes: [] }, {});
    await updateClient("off-app", { name: "Off", scopes: [], enabled: false }, {});
    await createClient({ id: "spa-app", name: "SPA", scopes: [], grantTypes: ["authorization_code"], redirectUris: ["https://spa.example/cb"] }, {});
    // The console creates confidential clients; a public one (as the import makes it) has no secret.
    await t.db.prisma.client.update({ where: { id: "spa-app" }, data: { type: "public", secretHash: null } });

    const refusals = {
      wrongSecret: () => authenticateClient("known-app", "not-the-secret"),
      unknownId: () => authenticateClient("no-such-app", "not-the-secret"),
      disabled: () => authenticateClient("off-app", "not-the-secret"),
      publicClient: () => authenticateClient("spa-app", "not-the-secret"),
      unknownRestId: () => authenticateRestClient("no-such-app", "not-the-password"),
    };
    for (const [name, refuse] of Object.entries(refusals)) {
      expect(await hashesOf(refuse), name).toBe(1);
      expect(await refuse(), name).toMatchObject({ ok: false });
    }
  });
});
