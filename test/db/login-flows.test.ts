import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importDocument } from "../../server/import/import.service.ts";
import { heldExternalIdentity, holdExternalIdentity } from "../../server/sign-in/external-login.service.ts";
import { findExternalIdentity } from "../../server/sign-in/login-flows.repository.ts";
import { createFlow, loadFlow, moveFlow } from "../../server/sign-in/login-flows.service.ts";
import type { TExternalIdentity } from "../../server/federation/external-auth/index.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

// A login flow is read once per request, with the external account it holds (sealed); the sign-in's
// completion binds or drops that one, and the flow's move past its sign-in drops any other.

const CLIENT = "flows-client";
const identity: TExternalIdentity = {
  provider: { fpType: "oidc", fpName: "op" },
  sid: "ext-1",
  userName: "Ext One",
  claims: { email: "ext@example.test" },
  tokens: { accessToken: "provider-access-token" },
};
const request = { clientId: CLIENT, redirectUri: "http://127.0.0.1:9/cb", scopes: ["openid"], prompt: [] };

describe.each(DB_KINDS)("login flows on %s", (kind) => {
  let t: TTestDatabase;
  beforeAll(async () => {
    t = await installTestDatabase(kind);
    await importDocument({ clients: [{ id: CLIENT, name: "Flows", type: "public", firstParty: true, scopes: [], grantTypes: ["authorization_code"], redirectUris: [request.redirectUri] }] }, {});
  });
  afterAll(async () => t?.close());

  it("carries the external account it holds, sealed, and none when it holds none", async () => {
    const { flowId } = await createFlow({ request, step: "credentials" });
    expect((await loadFlow(flowId)).externalIdentity).toBeNull();
    await holdExternalIdentity(flowId, identity);
    const flow = await loadFlow(flowId);
    expect(flow.externalIdentity).not.toContain("provider-access-token");
    expect(heldExternalIdentity(flow)).toEqual(identity);
  });

  it("drops an external account held meanwhile once the flow moves past its sign-in", async () => {
    for (const to of ["consent", "done"] as const) {
      const { flowId } = await createFlow({ request, step: "credentials" });
      const readBefore = await loadFlow(flowId);
      // A provider's callback holds an account on the flow between this request's read and its end.
      await holdExternalIdentity(flowId, identity);
      await moveFlow(readBefore, to);
      expect(await findExternalIdentity(flowId)).toBeNull();
    }
  });

  it("keeps it while the sign-in still has steps to pass", async () => {
    const { flowId } = await createFlow({ request, step: "credentials" });
    await holdExternalIdentity(flowId, identity);
    await moveFlow(await loadFlow(flowId), "second_factor");
    expect(heldExternalIdentity(await loadFlow(flowId))).toEqual(identity);
  });
});
