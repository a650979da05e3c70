import { randomBytes } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { Browser } from "../support/browser.ts";
import { consoleSignIn, trpcCall } from "../support/console.ts";
import { api, base, request, tokenRequest } from "../support/http.ts";
import { until } from "../support/wait.ts";
import { authorizeThrough, authorizeUrl, callbackParams, pkcePair } from "../support/oidc.ts";

// Applications by kind in the console: a web application (confidential, code + PKCE), a single-page
// or native one (public, no secret) and a machine-to-machine one (client credentials); scopes only
// from the known ones; deletion that ends everything the application was given.

const stamp = () => `${Date.now().toString(36)}-${randomBytes(3).toString("hex")}`;
const REDIRECT = "https://kinds.example.test/cb";

async function admin() {
  return consoleSignIn(base(), "admin", inject("adminPassword"));
}

const create = (cookie: string, input: Record<string, unknown>) => trpcCall(base(), cookie, "console.clients.create", input, "mutation");

function errorItems(body: { error?: { data: object } }): { desc: string; pos: string }[] {
  return (body.error?.data as { items?: { desc: string; pos: string }[] } | undefined)?.items ?? [];
}

describe("applications by kind", () => {
  it("creates a web, a single-page and a machine-to-machine application, each with what its kind needs", async () => {
    const cookie = await admin();
    const s = stamp();
    const web = await create(cookie, { id: `web-${s}`, name: "Web", type: "confidential", scopes: [], userScopes: ["idp_api_user"], grantTypes: ["authorization_code", "refresh_token"], redirectUris: [REDIRECT] });
    expect(web.status, JSON.stringify(web.body)).toBe(200);
    expect(web.body.result!.data.client).toMatchObject({ type: "confidential", kind: "web" });
    expect(web.body.result!.data.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const spa = await create(cookie, { id: `spa-${s}`, name: "SPA", type: "public", scopes: [], grantTypes: ["authorization_code"], redirectUris: [REDIRECT] });
    expect(spa.status, JSON.stringify(spa.body)).toBe(200);
    expect(spa.body.result!.data).toMatchObject({ client: { type: "public", kind: "spa" }, secret: null });

    const m2m = await create(cookie, { id: `m2m-${s}`, name: "M2M", type: "confidential", scopes: ["idp_api_sys_users"], grantTypes: ["client_credentials"] });
    expect(m2m.body.result!.data.client).toMatchObject({ kind: "m2m", redirectUris: [] });
    const token = await tokenRequest({ grant_type: "client_credentials", scope: "idp_api_sys_users" }, { basic: [`m2m-${s}`, m2m.body.result!.data.secret] });
    expect(token.status).toBe(200);

    // A public application holds no system scopes and cannot use client credentials.
    const bad = await create(cookie, { id: `spa-bad-${s}`, name: "Bad", type: "public", scopes: ["idp_api_sys_users"], grantTypes: ["client_credentials"] });
    expect(bad.status).toBe(400);
    expect(errorItems(bad.body).map((i) => i.desc)).toEqual(expect.arrayContaining(["a public client cannot use client_credentials", "a public client cannot hold system scopes"]));

    const listed = await trpcCall(base(), cookie, "console.clients.list", { search: s });
    expect(listed.body.result!.data.items.map((c: { id: string; kind: string }) => `${c.id}:${c.kind}`).sort()).toEqual([`m2m-${s}:m2m`, `spa-${s}:spa`, `web-${s}:web`]);
  });

  it("refuses scopes no operation knows, names them, and saves nothing", async () => {
    const cookie = await admin();
    const s = stamp();
    const r = await create(cookie, { id: `scopes-${s}`, name: "Typos", scopes: ["idp_api_sys_userz", "fed_tkn_oidc_google"], userScopes: ["idp_api_usr", "openid"], grantTypes: ["client_credentials"] });
    expect(r.status).toBe(400);
    expect(errorItems(r.body)).toEqual([
      expect.objectContaining({ pos: "scopes", desc: "unknown system scope: idp_api_sys_userz" }),
      expect.objectContaining({ pos: "userScopes", desc: "unknown user scope: idp_api_usr" }),
    ]);
    expect((await trpcCall(base(), cookie, "console.clients.get", { id: `scopes-${s}` })).status).toBe(404);

    const known = (await trpcCall(base(), cookie, "console.clients.knownScopes")).body.result!.data;
    expect(known.system).toContain("idp_api_sys_users");
    expect(known.user).toContain("idp_api_user");
    expect(known.standard).toEqual(["openid", "profile", "email", "phone", "offline_access"]);

    // A provider's own token scope is known by its shape.
    const ok = await create(cookie, { id: `scopes-${s}`, name: "Fine", scopes: ["fed_tkn_oidc_google"], grantTypes: ["client_credentials"] });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const edit = await trpcCall(base(), cookie, "console.clients.update", { id: `scopes-${s}`, name: "Fine", enabled: true, scopes: ["fed_tkn_oidc_google", "nope"] }, "mutation");
    expect(edit.status).toBe(400);
    expect(errorItems(edit.body)).toEqual([expect.objectContaining({ pos: "scopes", desc: "unknown system scope: nope" })]);
  });

  it("deletes an application: its tokens, consents and refresh tokens end, and a new one with the same id does not inherit them", async () => {
    const cookie = await admin();
    const id = `del-${stamp()}`;
    const made = await create(cookie, { id, name: "Doomed", scopes: ["idp_api_sys_users"], grantTypes: ["client_credentials", "authorization_code", "refresh_token"], redirectUris: [REDIRECT] });
    const secret: string = made.body.result!.data.secret;

    // A person signs in through it (consent given) and it holds a system token too.
    const { verifier, challenge } = pkcePair();
    const url = authorizeUrl({ response_type: "code", client_id: id, redirect_uri: REDIRECT, scope: "openid offline_access", state: "s", code_challenge: challenge, code_challenge_method: "S256" });
    const code = callbackParams(await authorizeThrough(new Browser(), url)).get("code")!;
    const tokens = await tokenRequest({ grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier }, { basic: [id, secret] });
    expect(tokens.status, tokens.text).toBe(200);
    const system = (await tokenRequest({ grant_type: "client_credentials", scope: "idp_api_sys_users" }, { basic: [id, secret] })).body.access_token as string;
    expect((await api("GET", "/api/v3/users/nobody-here", { token: system })).status).toBe(404);

    const impact = await trpcCall(base(), cookie, "console.clients.deletionImpact", { id });
    expect(impact.body.result!.data).toEqual({ refreshTokens: 1, consents: 1, instances: 0 });

    const deleted = await trpcCall(base(), cookie, "console.clients.delete", { id }, "mutation");
    expect(deleted.status).toBe(200);
    expect((await trpcCall(base(), cookie, "console.clients.get", { id })).status).toBe(404);

    expect((await api("GET", "/api/v3/users/nobody-here", { token: system })).status).toBe(401);
    expect((await request("/oauth/me", { headers: { authorization: `Bearer ${tokens.body.access_token}` } })).status).toBe(401);
    const refresh = await tokenRequest({ grant_type: "refresh_token", refresh_token: tokens.body.refresh_token }, { basic: [id, secret] });
    expect(refresh.status).toBe(401);
    expect(refresh.body.error).toBe("invalid_client");

    // The id taken again: the old application's tokens stay dead, the new one's work. Tokens carry
    // their time in whole seconds, so the new application is made in a later second than the token.
    const iat = JSON.parse(Buffer.from(system.split(".")[1]!, "base64url").toString()).iat as number;
    await until(() => Date.now() >= (iat + 1) * 1000, 2_000);
    const again = await create(cookie, { id, name: "Reborn", scopes: ["idp_api_sys_users"], grantTypes: ["client_credentials"] });
    expect(again.status).toBe(200);
    expect((await api("GET", "/api/v3/users/nobody-here", { token: system })).status).toBe(401);
    const fresh = await tokenRequest({ grant_type: "client_credentials", scope: "idp_api_sys_users" }, { basic: [id, again.body.result!.data.secret] });
    expect((await api("GET", "/api/v3/users/nobody-here", { token: fresh.body.access_token })).status).toBe(404);

    const events = await trpcCall(base(), cookie, "console.events.list", { type: "client.deleted", limit: 100 });
    const event = events.body.result!.data.items.find((e: { params: Record<string, unknown> }) => e.params.client === id);
    // Counts only: a parameter named like a token would be redacted from the trail.
    expect(event.params).toMatchObject({ client: id, refreshGrants: 1, consents: 1, instances: 0 });
  });

  it("keeps the service's own applications and answers an unknown id with 404", async () => {
    const cookie = await admin();
    const builtin = await trpcCall(base(), cookie, "console.clients.delete", { id: "idp-console" }, "mutation");
    expect(builtin.status).toBe(403);
    expect((await trpcCall(base(), cookie, "console.clients.get", { id: "idp-console" })).status).toBe(200);
    expect((await trpcCall(base(), cookie, "console.clients.delete", { id: `absent-${stamp()}` }, "mutation")).status).toBe(404);
    expect((await trpcCall(base(), cookie, "console.clients.deletionImpact", { id: `absent-${stamp()}` })).status).toBe(404);
  });
});
