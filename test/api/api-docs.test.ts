import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { base, request } from "../support/http.ts";

const BUNDLE = readFileSync(path.join(process.cwd(), "node_modules/@scalar/api-reference/dist/browser/standalone.js"));

/** GET with node:http, which (unlike fetch) hands over the body as sent, still encoded. */
function rawGet(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
}

async function docsPage() {
  const page = await request("/api/docs");
  expect(page.status).toBe(200);
  const script = /<script src="([^"]+)"><\/script>/.exec(page.text)?.[1];
  const config = /data-configuration="([^"]+)"/.exec(page.text)?.[1];
  return { page, scriptUrl: new URL(script!, base()).toString(), config: JSON.parse(config!.replace(/&#34;/g, '"').replace(/&#39;/g, "'").replace(/&#38;/g, "&")) };
}

describe("the API reference page", () => {
  it("is Scalar's reference over the service's own document, with no inline script and requests only to the service", async () => {
    const { page, scriptUrl, config } = await docsPage();
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(scriptUrl).toMatch(new RegExp(`^${base()}/api/docs/scalar\\.js\\?v=[\\w-]{16}$`));
    expect(config).toMatchObject({ url: "/idp/api/openapi.json", withDefaultFonts: false, telemetry: false, agent: { disabled: true } });
    expect(config.proxyUrl).toBeUndefined();
    expect(page.text).not.toMatch(/<script>|<script [^>]*>[^<]/);
    expect(page.text).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
    const csp = page.headers.get("content-security-policy")!;
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain(`connect-src 'self' ${new URL(base()).origin};`);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
  });

  it("serves Scalar's bundle from node_modules with an ETag and a year's cache for its versioned URL", async () => {
    const { scriptUrl } = await docsPage();
    const first = await rawGet(scriptUrl, { "accept-encoding": "gzip, deflate, br" });
    expect(first.status).toBe(200);
    expect(first.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    // Next 16 drops a route handler's Content-Encoding, so the bundle goes out as it is (docs-assets.ts).
    expect(first.headers["content-encoding"]).toBeUndefined();
    expect(first.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(first.body.equals(BUNDLE)).toBe(true);
    const etag = first.headers.etag!;
    expect(etag).toBe(`"${new URL(scriptUrl).searchParams.get("v")}"`);
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`]) {
      const again = await rawGet(scriptUrl, { "if-none-match": ifNoneMatch });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
    }
    expect((await rawGet(scriptUrl, { "if-none-match": '"other"' })).status).toBe(200);
    const unversioned = await rawGet(`${base()}/api/docs/scalar.js`);
    expect(unversioned.headers["cache-control"]).toBe("public, max-age=300");
    expect(unversioned.body.equals(BUNDLE)).toBe(true);
    const tooLong = await request("/api/docs/scalar.js?v=" + "x".repeat(65));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toMatchObject({ type: "input_error", error: "wrong_values" });
  });

  it("documents the client-credentials flow at the service's token endpoint, so try it can fetch a system token", async () => {
    const doc = (await request("/api/openapi.json")).body;
    const scheme = doc.components.securitySchemes.clientCredentials;
    expect(scheme.type).toBe("oauth2");
    expect(scheme.flows.clientCredentials.tokenUrl).toBe(`${base()}/oauth/te`);
    expect(Object.keys(scheme.flows.clientCredentials.scopes)).toEqual(expect.arrayContaining(["idp_api_sys_users", "idp_api_sys_users_chg"]));
    expect(Object.keys(scheme.flows.clientCredentials.scopes)).not.toContain("idp_api_user");
    expect(doc.paths["/api/v3/users/{subjectId}"].get.security).toEqual(
      expect.arrayContaining([{ clientCredentials: expect.arrayContaining(["idp_api_sys_users"]) }]),
    );
    expect(doc.paths["/metrics"].get.tags).toEqual(["Operations"]);
    expect(doc.paths["/api/docs/scalar.js"].get).toBeDefined();
  });
});
