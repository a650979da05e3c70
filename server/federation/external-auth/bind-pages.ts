import { html } from "../../html/html.ts";
import { pickLang, type TLang } from "../../html/texts.ts";
import { htmlResponse, renderPage } from "../../html/layout.ts";
import { errorView } from "../../html/error-view.ts";
import type { TAnswer, TIncoming } from "../../http/exchange.ts";

// The pages of {ctx}/fa/start: the confirmation of a binding an application asked for, and the refusal
// when the browser is signed in as someone else than the user the binding is for.

const TEXTS = {
  en: {
    title: "Link an external account",
    confirm: (app: string, fp: string) => `${app} asks to link your external account at ${fp} to your account here. Link only if you started this yourself.`,
    submit: "Link",
    otherUser: "This link was made for another account than the one signed in here. Sign out of the account portal and sign in as that account, or start again from the application.",
  },
  ru: {
    title: "Привязка внешней учётной записи",
    confirm: (app: string, fp: string) => `${app} просит привязать вашу внешнюю учётную запись в ${fp} к вашей учётной записи здесь. Привязывайте, только если вы начали это сами.`,
    submit: "Привязать",
    otherUser: "Эта ссылка создана для другой учётной записи, чем та, под которой выполнен вход. Выйдите из личного кабинета и войдите под той учётной записью или начните заново из приложения.",
  },
} as const satisfies Record<TLang, unknown>;

/** The form that confirms the binding with a POST; csrf ties it to this browser and user. */
export function confirmBindPage(req: TIncoming, v: { application: string; provider: string; action: string; hidden: Record<string, string> }, headers: Record<string, string>): TAnswer {
  const lang = pickLang(req);
  const t = TEXTS[lang];
  const body = html`<h1>${t.title}</h1>
<p>${t.confirm(v.application, v.provider)}</p>
<form method="post" action="${v.action}">
${Object.entries(v.hidden).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
<button type="submit" class="primary" autofocus>${t.submit}</button>
</form>`;
  return htmlResponse(renderPage({ lang, title: t.title, body }), 200, headers);
}

export function otherUserPage(req: TIncoming): TAnswer {
  const lang = pickLang(req);
  return htmlResponse(errorView({ lang, title: TEXTS[lang].title, message: TEXTS[lang].otherUser }), 403);
}
