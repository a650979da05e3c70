import { createHash } from "node:crypto";
import { derivedOnce } from "../cache/derived-once.ts";
import { getConfig } from "../config/config.ts";
import { html, type THtml } from "./html.ts";
import { currentPageBrand, type TAccentShades, type TPageBrand } from "./page-brand.ts";
import { kitText, type TLang } from "./texts.ts";
import { Answer, type TAnswerHeaders } from "../http/exchange.ts";

// Light and dark follow the system; focus is always visible; text scales with the user's settings.
// --accent fills primary buttons, --accent-ink is the accent as text and outline on the page (a
// brand's accent may be too light or dark for that, see server/branding/branding.shared.ts).
const CSS = `
:root { color-scheme: light dark; --bg: #f4f5f7; --card: #fff; --text: #1b1f24; --muted: #57606a; --line: #c9d1d9;
  --accent: #0b5cad; --accent-text: #fff; --accent-ink: #0b5cad; --error-bg: #fdecea; --error: #a4161a; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #0d1117; --card: #161b22; --text: #e6edf3; --muted: #9da7b3; --line: #3d444d;
    --accent: #4493f8; --accent-text: #0d1117; --accent-ink: #4493f8; --error-bg: #3b1214; --error: #ff9b9b; } }
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; display: flex; flex-direction: column; align-items: center; justify-content: center;
  background: var(--bg); color: var(--text); font: 1rem/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; padding: 1rem; }
main { width: 100%; max-width: 24rem; background: var(--card); border: 1px solid var(--line); border-radius: .75rem; padding: 2rem; }
h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
p { margin: .5rem 0; }
.muted { color: var(--muted); }
form { margin-top: 1.25rem; display: grid; gap: .5rem; }
label { font-weight: 600; margin-top: .5rem; }
input[type=text], input[type=password], input[type=email], input[type=tel], input[type=date] { font: inherit; padding: .6rem .75rem; border: 1px solid var(--line); border-radius: .5rem;
  background: var(--bg); color: var(--text); width: 100%; }
input[aria-invalid=true] { border-color: var(--error); }
button { font: inherit; font-weight: 600; padding: .65rem 1rem; border-radius: .5rem; border: 1px solid var(--accent); cursor: pointer; }
button.primary { background: var(--accent); color: var(--accent-text); }
button.secondary { background: transparent; color: var(--accent-ink); }
.actions { display: flex; gap: .75rem; margin-top: 1rem; }
.actions button { flex: 1; }
:focus-visible { outline: 3px solid var(--accent-ink); outline-offset: 2px; }
.alert { background: var(--error-bg); color: var(--error); border-radius: .5rem; padding: .75rem 1rem; margin-top: 1rem; }
.hint { font-size: .875rem; color: var(--muted); margin: 0; }
ul.scopes { padding-left: 1.25rem; }
footer { margin-top: 1rem; font-size: .875rem; display: flex; flex-wrap: wrap; justify-content: center; gap: .25rem 1.25rem; }
fieldset { border: 1px solid var(--line); border-radius: .5rem; margin: .5rem 0 0; padding: .5rem 1rem 1rem; display: grid; gap: .5rem; }
legend { font-weight: 600; padding: 0 .25rem; }
.optional { font-weight: 400; color: var(--muted); }
.label { font-weight: 600; margin: .5rem 0 0; }
.field-error { color: var(--error); font-size: .875rem; margin: 0; }
.check { display: flex; gap: .5rem; align-items: center; margin-top: .5rem; }
.check label { margin: 0; }
.alert ul { margin: .25rem 0 0; padding-left: 1.25rem; }
.alert a { color: inherit; }
.notice { border-left: 4px solid var(--accent-ink); padding: .5rem .75rem; margin-top: 1rem; }
.aside { margin-top: 1.25rem; }
form.contact + form.contact { border-top: 1px solid var(--line); padding-top: 1rem; }
a { color: var(--accent-ink); }
header.brand { display: flex; align-items: center; gap: .75rem; margin-bottom: 1rem; font-size: 1.125rem; font-weight: 600; }
header.brand img { max-height: 3rem; max-width: 12rem; }
`;

const shades = (s: TAccentShades) => `--accent: ${s.fill}; --accent-text: ${s.text}; --accent-ink: ${s.ink};`;

/**
 * The page's only style, allowed by its hash: no inline script or foreign resource can run. A brand's
 * accent changes the style, so the style and its hash are made once per brand the branding cache
 * holds (a new brand is a new object).
 */
const pageStyle = derivedOnce((brand: TPageBrand) => {
  const accent = brand.accent;
  const css = accent ? `${CSS}:root { ${shades(accent.light)} }\n@media (prefers-color-scheme: dark) { :root { ${shades(accent.dark)} } }\n` : CSS;
  return { css, hash: sourceHash(css) };
});

/** The product's name above the card, with its logo, when the brand gives either. */
function brandHeader(brand: TPageBrand, productName: string): THtml | string {
  if (!brand.logoUrl && !brand.productName) return "";
  // The logo names the product; the name beside it is for the eye only, so it is not read twice.
  const logo = brand.logoUrl ? html`<img src="${brand.logoUrl}" alt="${productName}">` : "";
  const name = brand.productName ? html`<span${{ markup: logo ? ' aria-hidden="true"' : "" }}>${brand.productName}</span>` : "";
  return html`<header class="brand">${logo}${name}</header>`;
}

/** The language switch and the brand's terms and privacy links, when there is any of them. */
function pageFooter(p: TPage, brand: TPageBrand): THtml | string {
  const other: TLang = p.lang === "ru" ? "en" : "ru";
  const links = [
    p.switchUrl ? html`<a href="${p.switchUrl}" hreflang="${other}" lang="${other}">${kitText(p.lang, "lang.switch")}</a>` : "",
    brand.termsUrl ? html`<a href="${brand.termsUrl}" rel="noopener">${kitText(p.lang, "page.terms")}</a>` : "",
    brand.privacyUrl ? html`<a href="${brand.privacyUrl}" rel="noopener">${kitText(p.lang, "page.privacy")}</a>` : "",
  ].filter(Boolean);
  return links.length ? html`<footer>${links}</footer>` : "";
}

export type TPage = { lang: TLang; title: string; body: THtml; switchUrl?: string; head?: THtml };

/** The document around a page's content, in the brand's look, with a link to the same page in the other language. */
export function renderPage(p: TPage): string {
  const brand = currentPageBrand();
  const productName = brand.productName ?? kitText(p.lang, "page.product");
  const doc = html`<!doctype html>
<html lang="${p.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="robots" content="noindex">
<title>${p.title} · ${productName}</title>
<style>${{ markup: pageStyle(brand).css }}</style>
${p.head ?? ""}
</head>
<body>
${brandHeader(brand, productName)}
<main>
${p.body}
</main>
${pageFooter(p, brand)}
</body>
</html>`;
  return doc.markup;
}

/** The CSP source of an inline style or script: it applies because its hash is listed, nothing else does. */
export function sourceHash(source: string): string {
  return `'sha256-${createHash("sha256").update(source).digest("base64")}'`;
}

/**
 * A page answer: never cached, never framed (clickjacking), no referrer leaking the flow id. A page
 * with a script of its own names its hash; the script may then call the service's own origin. The
 * style's hash and the logo's origin are those of the brand renderPage used: both read the brand
 * held now, and nothing replaces it between a page's rendering and its answer as long as the page
 * is answered right after it is rendered, with no await between (as every page here is).
 */
export function htmlResponse(markup: string, status: number, headers: TAnswerHeaders = {}, script?: string): Answer {
  const brand = currentPageBrand();
  const scripts = script ? ` script-src ${script}; connect-src 'self';` : "";
  const images = brand.logoUrl ? " img-src 'self';" : "";
  const own = {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    "content-security-policy": `default-src 'none'; style-src ${pageStyle(brand).hash};${images}${scripts} frame-ancestors 'none'; base-uri 'none'`,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
  };
  return new Answer(status, { ...own, ...headers }, markup);
}

/** A page of the service by its path below the context path, as the public sees it. */
export function pageLink(path: string, params: Record<string, string | undefined>): string {
  const url = new URL(getConfig().issuer + path);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}
