import { describe, expect, inject, it } from "vitest";
import { consoleSignIn, trpcCall } from "../support/console.ts";
import { base } from "../support/http.ts";

// The console's tRPC calls act with the administrator's cookies: another site's page must not be able
// to make them (cross-site request forgery), nor send what tRPC would read past the request limit.

const call = (path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) =>
  fetch(`${base()}${path}`, { method: init.method ?? "GET", headers: init.headers, body: init.body, redirect: "manual" });

describe("console calls (tRPC)", () => {
  it("are refused from another site's page, whatever the cookies; the service's own pages are served", async () => {
    const cookie = await consoleSignIn(base(), "admin", inject("adminPassword"));
    const list = "/api/trpc/console.clients.list?input=%7B%7D";
    for (const headers of [{ "sec-fetch-site": "cross-site" }, { "sec-fetch-site": "same-site" }, { origin: "https://evil.example" }] as Record<string, string>[]) {
      const r = await call(list, { headers: { cookie, ...headers } });
      expect(r.status, JSON.stringify(headers)).toBe(403);
      expect((await r.json()).error.data).toEqual({ code: "FORBIDDEN", httpStatus: 403 });
    }
    expect((await call(list, { headers: { cookie, "sec-fetch-site": "same-origin", origin: new URL(base()).origin } })).status).toBe(200);

    // A forged "create a client" from another site changes nothing.
    const id = `csrf-${Date.now().toString(36)}`;
    const forged = await call("/api/trpc/console.clients.create", {
      method: "POST",
      headers: { cookie, "content-type": "application/json", "sec-fetch-site": "cross-site", origin: "https://evil.example" },
      body: JSON.stringify({ id, name: id, scopes: ["idp_api_sys_users"] }),
    });
    expect(forged.status).toBe(403);
    // A form post (the only cross-site write a page can make without CORS) is not JSON.
    const form = await call("/api/trpc/console.clients.create", { method: "POST", headers: { cookie, "content-type": "text/plain" }, body: JSON.stringify({ id, name: id, scopes: [] }) });
    expect(form.status).toBe(415);
    const found = await trpcCall(base(), cookie, "console.clients.list", { search: id });
    expect(found.body.result?.data.items).toEqual([]);
  });

  it("refuses batches of more than 20 calls and bodies over the limit", async () => {
    const cookie = await consoleSignIn(base(), "admin", inject("adminPassword"));
    const batch = (n: number) =>
      call(`/api/trpc/${Array(n).fill("console.clients.list").join(",")}?batch=1&input=${encodeURIComponent(JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [i, {}]))))}`, { headers: { cookie } });
    expect((await batch(20)).status).toBe(200);
    expect((await batch(21)).status).toBe(400);

    const huge = JSON.stringify({ id: "x", name: "y".repeat(70_000), scopes: [] });
    const big = await call("/api/trpc/console.clients.create", { method: "POST", headers: { cookie, "content-type": "application/json" }, body: huge });
    expect(big.status).toBe(413);
    const auth = await call("/api/auth/signin/idp-console", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: `csrfToken=${"a".repeat(70_000)}` });
    expect(auth.status).toBe(413);
    expect((await auth.json()).error).toBe("wrong_values");
  });
});
