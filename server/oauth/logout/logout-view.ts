import { html } from "../../html/html.ts";
import { renderPage } from "../../html/layout.ts";
import type { TLang } from "../../html/texts.ts";

// The sign-out page of the end-session endpoint: the question, or that it is done.

const TEXTS = {
  en: {
    title: "Sign out",
    confirm: "Sign out of your account on this device?",
    submit: "Sign out",
    done: "You are signed out.",
  },
  ru: {
    title: "Выход",
    confirm: "Выйти из учётной записи на этом устройстве?",
    submit: "Выйти",
    done: "Вы вышли из учётной записи.",
  },
} as const satisfies Record<TLang, Record<string, string>>;

export function logoutView(v: { lang: TLang; switchUrl?: string; action?: string; hidden?: Record<string, string | undefined>; done: boolean }): string {
  const t = TEXTS[v.lang];
  const hidden = Object.entries(v.hidden ?? {}).filter(([, value]) => value !== undefined);
  const body = v.done
    ? html`<h1>${t.title}</h1><p role="status">${t.done}</p>`
    : html`<h1>${t.title}</h1>
<p>${t.confirm}</p>
<form method="post" action="${v.action}">
${hidden.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
<button type="submit" class="primary" autofocus>${t.submit}</button>
</form>`;
  return renderPage({ lang: v.lang, title: t.title, body, switchUrl: v.switchUrl });
}
