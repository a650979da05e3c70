import { AppError } from "../../errors/app-error.ts";
import { html } from "../../html/html.ts";
import { pickLang, type TLang } from "../../html/texts.ts";
import { htmlResponse, renderPage, sourceHash } from "../../html/layout.ts";
import { errorPage } from "../../html/page-route.ts";
import { errorView } from "../../html/error-view.ts";
import type { TAnswer, TIncoming } from "../../http/exchange.ts";

// The few pages of the redirect flow: its failures in words, and the popup's hand-over to its opener.

const TEXTS = {
  en: {
    title: "External account",
    continue: "Continue",
    "federation.auth_request_not_found": "This link to the external provider is unknown, used already or expired. Start again from the application.",
    "federation.provider_refused": "The external provider did not confirm your account.",
    "federation.provider_unavailable": "The external provider cannot be reached now. Try again later.",
    "federation.provider_not_found": "This external provider is not configured on the service.",
    "federation.sid_bound": "This external account is linked to another user.",
    popup: "You can close this window.",
  },
  ru: {
    title: "Внешняя учётная запись",
    continue: "Продолжить",
    "federation.auth_request_not_found": "Эта ссылка к внешнему провайдеру неизвестна, уже использована или устарела. Начните заново из приложения.",
    "federation.provider_refused": "Внешний провайдер не подтвердил вашу учётную запись.",
    "federation.provider_unavailable": "Внешний провайдер сейчас недоступен. Попробуйте позже.",
    "federation.provider_not_found": "Этот внешний провайдер не настроен в сервисе.",
    "federation.sid_bound": "Эта внешняя учётная запись привязана к другому пользователю.",
    popup: "Это окно можно закрыть.",
  },
} as const satisfies Record<TLang, Record<string, string>>;

type TKey = keyof (typeof TEXTS)["en"];

/** A failure of the flow as a page in the visitor's language; codes without words of their own go to the sign-in pages' renderer. */
export function externalAuthErrorPage(req: TIncoming, e: unknown, requestId: string): TAnswer {
  if (!(e instanceof AppError) || !(e.code in TEXTS.en)) return errorPage(req, e, requestId);
  const lang = pickLang(req);
  const message = TEXTS[lang][e.code as TKey];
  return htmlResponse(errorView({ lang, message, title: TEXTS[lang].title }), e.status);
}

// Constant, so the page's CSP can name its hash: the data travels in a JSON block beside it.
const POPUP_SCRIPT =
  'var d=JSON.parse(document.getElementById("outcome").textContent);' +
  "if(window.opener){window.opener.postMessage(d.message,d.origin);window.close();}else{location.replace(d.url);}";

/**
 * isPopup: the outcome posted to window.opener (only to the origin of the application's callback),
 * then the window closes. Without an opener it goes to the callback like a full-page flow; without
 * JavaScript a link does.
 */
export function popupOutcomePage(req: TIncoming, url: string, message: Record<string, string>): TAnswer {
  const lang = pickLang(req);
  const t = TEXTS[lang];
  const data = JSON.stringify({ url, origin: new URL(url).origin, message: { type: "idp.fa_bind", ...message } }).replace(/</g, "\\u003c");
  const body = html`<h1>${t.title}</h1>
<p>${t.popup}</p>
<p><a href="${url}">${t.continue}</a></p>
<script type="application/json" id="outcome">${{ markup: data }}</script>
<script>${{ markup: POPUP_SCRIPT }}</script>`;
  return htmlResponse(renderPage({ lang, title: t.title, body }), 200, {}, sourceHash(POPUP_SCRIPT));
}
