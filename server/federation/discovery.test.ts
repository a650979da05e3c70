import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startExternalProvider, startFakeProvider, type TExternalProvider } from "../../test/support/external-provider.ts";
import { discoverProvider, discoveryTarget } from "./discovery.service.ts";

describe("discovery against a real OpenID provider (oidc-provider on loopback)", () => {
  let op: TExternalProvider;
  beforeAll(async () => {
    op = await startExternalProvider();
  });
  afterAll(async () => op.close());

  it("finds the endpoints, given the issuer or the whole well-known URL", async () => {
    for (const given of [op.issuer, `${op.issuer}/`, `${op.issuer}/.well-known/openid-configuration`]) {
      const r = await discoverProvider(given);
      expect(r).toMatchObject({ ok: true, url: `${op.issuer}/.well-known/openid-configuration` });
      if (!r.ok) continue;
      expect(r.found.issuer).toBe(op.issuer);
      expect(r.found.authorizationEndpoint).toBe(`${op.issuer}/auth`);
      expect(r.found.tokenEndpoint).toBe(`${op.issuer}/token`);
      expect(r.found.jwksUri).toBe(`${op.issuer}/jwks`);
      expect(r.found.scopesSupported).toContain("openid");
    }
  });

  it("refuses an issuer other than the one the provider is configured with", async () => {
    expect(await discoverProvider(op.issuer, { expectedIssuer: "https://other.example.test" })).toMatchObject({
      ok: false,
      error: `the issuer is ${op.issuer}, but the provider is configured with https://other.example.test`,
    });
  });
});

describe("discovery failures, reported in words", () => {
  const fakes: TExternalProvider[] = [];
  const fake = async (answer: Parameters<typeof startFakeProvider>[0]) => {
    const f = await startFakeProvider(answer);
    fakes.push(f);
    return f;
  };
  afterAll(async () => Promise.all(fakes.map((f) => f.close())));

  it("a 404", async () => {
    const f = await fake(() => ({ status: 404, body: "{}" }));
    expect(await discoverProvider(f.issuer)).toEqual({ ok: false, url: `${f.issuer}/.well-known/openid-configuration`, error: "the provider answered HTTP 404" });
  });

  it("a redirect, which is not followed", async () => {
    const f = await fake(() => ({ status: 302, body: "" }));
    expect((await discoverProvider(f.issuer)) as { error: string }).toMatchObject({ ok: false, error: "the provider answered HTTP 302 (a redirect, not followed)" });
  });

  it("a document whose issuer is another", async () => {
    const f = await fake(() => ({ status: 200, body: JSON.stringify({ issuer: "https://evil.example.test", authorization_endpoint: "https://evil.example.test/a", jwks_uri: "https://evil.example.test/j" }) }));
    expect(await discoverProvider(f.issuer)).toMatchObject({ ok: false, error: `the issuer is https://evil.example.test, expected ${f.issuer}` });
  });

  it("a response that is not JSON, and one without required endpoints", async () => {
    const html = await fake(() => ({ status: 200, type: "text/html", body: "<html>sign in</html>" }));
    expect(await discoverProvider(html.issuer)).toMatchObject({ ok: false, error: "the response is not JSON" });
    const partial = await fake((issuer) => ({ status: 200, body: JSON.stringify({ issuer }) }));
    expect(await discoverProvider(partial.issuer)).toMatchObject({ ok: false, error: "the document has no authorization_endpoint" });
  });

  it("a document larger than the limit", async () => {
    const f = await fake((issuer) => ({ status: 200, body: JSON.stringify({ issuer, padding: "x".repeat(300_000) }) }));
    expect(await discoverProvider(f.issuer)).toMatchObject({ ok: false, error: "the document is larger than 262144 bytes" });
  });

  it("a socket that accepts and never answers: a timeout", async () => {
    const server: Server = createServer(() => undefined);
    const silent = new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
    const port = await silent;
    const started = Date.now();
    const r = await discoverProvider(`http://127.0.0.1:${port}`, { timeoutMs: 300 });
    expect(r).toMatchObject({ ok: false, error: "no answer within 300 ms" });
    expect(Date.now() - started).toBeLessThan(5_000);
    server.closeAllConnections();
    server.close();
  });

  it("a closed port, and plain http off loopback", async () => {
    const closed = await discoverProvider("http://127.0.0.1:9");
    expect(closed.ok).toBe(false);
    expect((closed as { error: string }).error).toMatch(/^cannot reach the provider: /);
    expect(await discoverProvider("http://idp.example.test")).toMatchObject({ ok: false, error: "https is required (http only on a loopback address)" });
  });

  it("derives the issuer from the URL given", () => {
    expect(discoveryTarget("https://a.test/realms/x/")).toEqual({ url: "https://a.test/realms/x/.well-known/openid-configuration", issuer: "https://a.test/realms/x" });
  });
});
