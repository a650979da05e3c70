import { html } from "../../html/html.ts";
import { htmlResponse, renderPage, sourceHash } from "../../html/layout.ts";
import { kitText, type TLang } from "../../html/texts.ts";
import type { Answer } from "../../http/exchange.ts";
import type { TMessageKind } from "./redirect.ts";

/*
 * The HTTP-POST binding's sending side (SAML bindings §3.5): a form the browser posts to the service
 * provider, submitted by a one-line script allowed by its hash, or by the person where scripts do
 * not run. form-action is left open by the pages' policy, so the post may go to another origin.
 */

const SUBMIT = "document.forms[0].submit()";
const SUBMIT_HASH = sourceHash(SUBMIT);

export function autoPostPage(lang: TLang, to: { action: string; appName: string }, kind: TMessageKind, xml: string, relayState?: string): Answer {
  const value = Buffer.from(xml, "utf8").toString("base64");
  const relay = relayState !== undefined ? html`<input type="hidden" name="RelayState" value="${relayState}">` : "";
  const body = html`<h1>${kitText(lang, "saml.sending", { app: to.appName })}</h1>
<form method="post" action="${to.action}">
<input type="hidden" name="${kind}" value="${value}">${relay}
<p>${kitText(lang, "saml.noscript")}</p>
<button type="submit">${kitText(lang, "saml.continue")}</button>
</form>
<script>${{ markup: SUBMIT }}</script>`;
  return htmlResponse(renderPage({ lang, title: kitText(lang, "saml.continue"), body }), 200, {}, SUBMIT_HASH);
}
