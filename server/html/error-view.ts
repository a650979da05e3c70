import { html } from "./html.ts";
import { renderPage } from "./layout.ts";
import { kitText, type TLang } from "./texts.ts";

/** A page that says why the browser cannot go on: a title (the kit's by default), the reason, and a hint. */
export function errorView(v: { lang: TLang; message: string; hint?: string; title?: string; switchUrl?: string }): string {
  const title = v.title ?? kitText(v.lang, "error.title");
  const body = html`<h1>${title}</h1>
<p class="alert" role="alert">${v.message}</p>
${v.hint ? html`<p>${v.hint}</p>` : ""}`;
  return renderPage({ lang: v.lang, title, body, switchUrl: v.switchUrl });
}
