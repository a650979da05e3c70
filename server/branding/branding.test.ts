import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { html } from "../html/html.ts";
import { htmlResponse, renderPage } from "../html/layout.ts";
import { BUILT_IN_BRAND, providePageBrand, type TPageBrand } from "../html/page-brand.ts";
import { ZBrandingImport, ZBrandingSettings, ZLogoUpload } from "./branding.schemas.ts";
import { accentShades, contrastRatio, LOGO_MAX_BYTES } from "./branding.shared.ts";
import { sniffLogoType } from "./logo.ts";
import { MAX_BODY_BYTES } from "../http/parse.ts";

const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201ffa1d9d4b20000000049454e44ae426082", "hex");
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');
const valid = { productName: "Acme ID", accentColour: "#FFCC00", termsUrl: "https://acme.example/terms", privacyUrl: null };

/** Where each refused field is, as the console and the import name them. */
const refusedAt = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) => (result.success ? [] : result.error!.issues.map((i) => i.path.join(".")).sort());

describe("branding input", () => {
  it("takes a name, a #rrggbb colour (stored in lower case) and https links", () => {
    expect(ZBrandingSettings.parse(valid)).toEqual({ ...valid, accentColour: "#ffcc00" });
    expect(ZBrandingSettings.parse({ ...valid, termsUrl: "http://127.0.0.1:8080/terms" }).termsUrl).toBe("http://127.0.0.1:8080/terms");
  });

  it("refuses a colour that is not #rrggbb, links that are not https, an empty or overlong name", () => {
    for (const accentColour of ["red", "#fc0", "#ffcc00; background:url(x)", "ffcc00"]) expect(refusedAt(ZBrandingSettings.safeParse({ ...valid, accentColour }))).toEqual(["accentColour"]);
    for (const termsUrl of ["javascript:alert(1)", "data:text/html,<b>x</b>", "http://acme.example/terms", "/terms"]) expect(refusedAt(ZBrandingSettings.safeParse({ ...valid, termsUrl }))).toEqual(["termsUrl"]);
    expect(refusedAt(ZBrandingSettings.safeParse({ ...valid, productName: "  ", privacyUrl: "javascript:x" }))).toEqual(["privacyUrl", "productName"]);
    expect(refusedAt(ZBrandingSettings.safeParse({ ...valid, productName: "x".repeat(61) }))).toEqual(["productName"]);
  });

  it("takes a PNG by its bytes and refuses SVG, a mislabelled or oversized image", () => {
    expect(sniffLogoType(PNG)).toBe("image/png");
    expect(ZLogoUpload.parse({ type: "image/png", data: PNG.toString("base64") }).bytes).toEqual(new Uint8Array(PNG));
    expect(refusedAt(ZLogoUpload.safeParse({ type: "image/svg+xml", data: SVG.toString("base64") }))).toEqual(["type"]);
    expect(refusedAt(ZLogoUpload.safeParse({ type: "image/png", data: SVG.toString("base64") }))).toEqual(["data"]);
    expect(refusedAt(ZLogoUpload.safeParse({ type: "image/jpeg", data: PNG.toString("base64") }))).toEqual(["data"]);
    const big = Buffer.concat([PNG, Buffer.alloc(LOGO_MAX_BYTES)]);
    expect(refusedAt(ZLogoUpload.safeParse({ type: "image/png", data: big.toString("base64") }))).toEqual(["data"]);
    expect(refusedAt(ZBrandingImport.safeParse({ logo: { type: "image/png", data: SVG.toString("base64") } }))).toEqual(["logo.data"]);
  });

  it("lets the largest logo reach the server: its base64 in a console call stays under the body limit", () => {
    const largest = Buffer.concat([PNG, Buffer.alloc(LOGO_MAX_BYTES - PNG.length)]);
    const call = JSON.stringify({ json: { type: "image/png", data: largest.toString("base64") } });
    expect(Buffer.byteLength(call)).toBeLessThan(MAX_BODY_BYTES);
    expect(ZLogoUpload.safeParse({ type: "image/png", data: largest.toString("base64") }).success).toBe(true);
  });
});

describe("accent shades", () => {
  it("pick the text on the fill by luminance, and shades legible as text on the pages' backgrounds", () => {
    expect(accentShades("#FFCC00").light).toMatchObject({ fill: "#ffcc00", text: "#0d1117" });
    expect(accentShades("#0b5cad").light).toEqual({ fill: "#0b5cad", text: "#ffffff", ink: "#0b5cad" });
    for (const accent of ["#ffcc00", "#0b5cad", "#00ff00", "#000080", "#777777", "#ffffff", "#000000"]) {
      const { light, dark } = accentShades(accent);
      expect(contrastRatio(light.fill, light.text), accent).toBeGreaterThanOrEqual(4.5);
      for (const bg of ["#ffffff", "#f4f5f7"]) expect(contrastRatio(light.ink, bg), `${accent} on ${bg}`).toBeGreaterThanOrEqual(4.5);
      for (const bg of ["#161b22", "#0d1117"]) expect(contrastRatio(dark.ink, bg), `${accent} on ${bg}`).toBeGreaterThanOrEqual(4.5);
    }
  });
});

describe("a branded page", () => {
  const brand: TPageBrand = { productName: "Acme <ID>", logoUrl: "/idp/branding/logo?v=abc", accent: accentShades("#ffcc00"), termsUrl: "https://acme.example/terms?a=1&b=2", privacyUrl: null };
  const render = (b: TPageBrand) => {
    providePageBrand({ current: () => b, ready: () => undefined });
    const markup = renderPage({ lang: "en", title: "Sign in", body: html`<h1>Sign in</h1>` });
    return { markup, csp: htmlResponse(markup, 200).headers["content-security-policy"] as string };
  };
  const styleHash = (markup: string) => `'sha256-${createHash("sha256").update(/<style>([\s\S]*?)<\/style>/.exec(markup)![1]!).digest("base64")}'`;

  it("allows exactly its own style by hash, and images from its own origin only when it shows a logo", () => {
    const branded = render(brand);
    const plain = render(BUILT_IN_BRAND);
    expect(branded.csp).toContain(`style-src ${styleHash(branded.markup)};`);
    expect(plain.csp).toContain(`style-src ${styleHash(plain.markup)};`);
    expect(styleHash(branded.markup)).not.toBe(styleHash(plain.markup));
    expect(branded.markup).toContain("--accent: #ffcc00; --accent-text: #0d1117;");
    expect(branded.csp).toMatch(/^default-src 'none'; style-src 'sha256-[^']+'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'$/);
    expect(plain.csp).not.toContain("img-src");
  });

  it("shows the name, logo and terms link escaped, and nothing of them in the built-in look", () => {
    const { markup } = render(brand);
    expect(markup).toContain("<title>Sign in · Acme &lt;ID&gt;</title>");
    expect(markup).toContain('<header class="brand"><img src="/idp/branding/logo?v=abc" alt="Acme &lt;ID&gt;"><span aria-hidden="true">Acme &lt;ID&gt;</span></header>');
    expect(markup).toContain('<footer><a href="https://acme.example/terms?a=1&amp;b=2" rel="noopener">Terms of use</a></footer>');
    const plain = render(BUILT_IN_BRAND).markup;
    expect(plain).toContain("<title>Sign in · Identity</title>");
    expect(plain).not.toContain("<header");
    expect(plain).not.toContain("<footer");
  });
});
