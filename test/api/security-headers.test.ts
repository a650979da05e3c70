import { describe, expect, it } from "vitest";
import { request, systemToken } from "../support/http.ts";
import { webAuthorization } from "../support/oidc.ts";

// Every answer refuses to be framed and sniffed, whichever transport served it (the fast path for the
// API, Next for pages, tRPC, next-auth and files); the console's and portal's pages carry a
// Content-Security-Policy whose nonce is on every script they render and new on every answer.

function expectBaseline(r: { headers: Headers }, what: string) {
  expect(r.headers.get("x-frame-options"), what).toBe("DENY");
  expect(r.headers.get("x-content-type-options"), what).toBe("nosniff");
  // Plain http: no Strict-Transport-Security (tls-client-certs.test.ts checks it over https).
  expect(r.headers.get("strict-transport-security"), what).toBeNull();
}

const nonceOf = (policy: string | null) => /'nonce-([A-Za-z0-9+/=]+)'/.exec(policy ?? "")?.[1];

describe("security headers", () => {
  it("are on API answers, errors, protocol endpoints, pages, tRPC, next-auth, files and unknown paths", async () => {
    const token = await systemToken("users-app", "idp_api_sys_users");
    const answers: [string, Promise<{ headers: Headers; status: number }>][] = [
      ["API read", request("/api/v3/users/ivanov", { headers: { authorization: `Bearer ${token}` } })],
      ["API 401", request("/api/v3/users/current")],
      ["API 404", request("/api/v3/no-such-thing")],
      ["token endpoint", request("/oauth/te", { method: "POST" })],
      ["discovery", request("/.well-known/openid-configuration")],
      ["health", request("/health/live")],
      ["authorization", request("", {}, webAuthorization().url)],
      ["sign-in page", request("/login")],
      ["console", request("/console/clients")],
      ["portal", request("/account")],
      ["tRPC", request("/api/trpc/console.clients.list")],
      ["next-auth", request("/api/auth/session")],
      ["API docs", request("/api/docs")],
      ["unknown page", request("/nowhere")],
    ];
    for (const [what, answer] of answers) {
      const r = await answer;
      expect(r.status, what).toBeLessThan(500);
      expectBaseline(r, what);
    }
  });

  it("console and portal pages: a policy with a fresh nonce that every script carries, and frame-ancestors 'none'", async () => {
    for (const path of ["/console/sign-in", "/account"]) {
      const [a, b] = [await request(path), await request(path)];
      expect(a.status, path).toBe(200);
      const policy = a.headers.get("content-security-policy")!;
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).toContain("object-src 'none'");
      expect(a.headers.get("referrer-policy")).toBe("same-origin");
      expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      const nonce = nonceOf(policy)!;
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{24}$/);
      expect(nonceOf(b.headers.get("content-security-policy"))).not.toBe(nonce);
      const scripts = a.text.match(/<script\b[^>]*>/g) ?? [];
      expect(scripts.length, path).toBeGreaterThan(0);
      for (const tag of scripts) expect(tag, path).toContain(`nonce="${nonce}"`);
    }
  });
});
