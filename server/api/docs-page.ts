/** What the reference page needs: where its script and the OpenAPI document are, and who it may call. */
export type TDocsPage = { title: string; scriptUrl: string; documentUrl: string; issuerOrigin: string };

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Scalar's configuration. Everything that would reach scalar.com is off: its fonts (the page uses
 * the system's), telemetry, the AI agent, the request proxy (the "html" integration has none; none
 * is set) and the "Open API Client" link that would hand the document's URL to client.scalar.com. "Try it" offers the OAuth2 client-credentials flow first, so a developer can fetch a
 * system token with the client's id and secret at the service's own token endpoint.
 */
function configuration(page: TDocsPage) {
  return {
    url: page.documentUrl,
    withDefaultFonts: false,
    telemetry: false,
    agent: { disabled: true },
    hideClientButton: true,
    showDeveloperTools: "never",
    persistAuth: false,
    authentication: { preferredSecurityScheme: "clientCredentials" },
    metaData: { title: page.title },
  };
}

/**
 * The content security policy: scripts only from the service (the page has no inline script; Scalar
 * reads its configuration from a data attribute), requests only to the service, styles inline
 * because Scalar injects them at run time.
 */
export function docsPageCsp(page: TDocsPage): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self' ${page.issuerOrigin}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

/** The reference page: an empty mount point and Scalar's script, both from this service. */
export function renderDocsPage(page: TDocsPage): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(page.title)}</title></head>
<body><noscript>The interactive API reference needs JavaScript. The OpenAPI document: <a href="${esc(page.documentUrl)}">${esc(page.documentUrl)}</a></noscript>
<div id="api-reference" data-configuration="${esc(JSON.stringify(configuration(page)))}"></div>
<script src="${esc(page.scriptUrl)}"></script></body></html>`;
}
