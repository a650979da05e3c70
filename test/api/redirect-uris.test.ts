import { describe, expect, inject, it } from "vitest";
import { consoleSignIn, trpcCall } from "../support/console.ts";
import { base } from "../support/http.ts";

// Where a client may send a browser with a code: https, plain http only to the loopback interface
// (RFC 8252 native apps), or an app's private-use scheme with a dot. A script or data URL, or plain
// http to another host, is refused when the client is saved, and nothing is saved.

const create = (cookie: string, id: string, redirectUris: string[], postLogoutRedirectUris: string[] = []) =>
  trpcCall(base(), cookie, "console.clients.create", { id, name: id, scopes: [], grantTypes: ["authorization_code"], redirectUris, postLogoutRedirectUris }, "mutation");

describe("redirect URIs", () => {
  it("refuses javascript:, data:, other schemes without a dot and http off the loopback interface; takes the rest", async () => {
    const cookie = await consoleSignIn(base(), "admin", inject("adminPassword"));
    const stamp = Date.now().toString(36);
    const refused = ["javascript:alert(document.cookie)", "data:text/html,<script>alert(1)</script>", "http://evil.example/cb", "file:///etc/passwd", "myapp:/cb", "vbscript:msgbox(1)"];
    for (const [i, uri] of refused.entries()) {
      const id = `redir-bad-${stamp}-${i}`;
      const r = await create(cookie, id, [uri]);
      expect(r.status, uri).toBe(400);
      expect(JSON.stringify(r.body.error), uri).toContain("private-use scheme with a dot");
      const logout = await create(cookie, `${id}-out`, ["https://ok.example/cb"], [uri]);
      expect(logout.status, `post-logout ${uri}`).toBe(400);
    }
    const listed = (await trpcCall(base(), cookie, "console.clients.list", { search: `redir-bad-${stamp}` })).body.result?.data.items ?? [];
    expect(listed).toEqual([]);

    const fine = await create(cookie, `redir-ok-${stamp}`, ["https://app.example/cb", "http://127.0.0.1:8400/cb", "http://[::1]:8400/cb", "http://localhost/cb", "com.example.app:/oauth2redirect"]);
    expect(fine.status, JSON.stringify(fine.body.error)).toBe(200);
  });
});
