import { html } from "../../html/html.ts";
import { renderPage } from "../../html/layout.ts";
import type { TLang } from "../../html/texts.ts";
import { passkeyForm, type TPasskeyChoice } from "../../sign-in/pages/views.ts";
import type { TRecoveryText } from "./recovery-i18n.ts";

// The pages of "Forgot password?": the address and the code (the new password is the sign-in step's
// page, in the recovery's words). Same rules as the
// sign-in form: they work without JavaScript, and a refusal is announced by an alert tied to the
// field it is about.

type TCommon = { lang: TLang; rt: TRecoveryText; switchUrl: string; action: string; csrf: string };

const alert = (id: string, text: string | undefined) => (text ? html`<p class="alert" role="alert" id="${id}">${text}</p>` : "");
const invalidIf = (error: string | undefined, id: string) => (error ? html` aria-invalid="true" aria-describedby="${id}"` : "");

/** The address a code goes to; `offered` names what the service sends codes to. */
export function requestView(v: TCommon & { offered: "both" | "email" | "phone"; value?: string; error?: string; backUrl: string }): string {
  const hint = v.offered === "email" ? undefined : v.rt("recover.addressHint");
  const described = [hint ? "address-hint" : "", v.error ? "address-error" : ""].filter(Boolean).join(" ");
  const type = v.offered === "email" ? "email" : v.offered === "phone" ? "tel" : "text";
  const autocomplete = v.offered === "phone" ? "tel" : v.offered === "email" ? "email" : "username";
  const body = html`<h1>${v.rt("recover.title")}</h1>
<p>${v.rt(`recover.lead.${v.offered}`)}</p>
${alert("address-error", v.error)}
<form method="post" action="${v.action}" novalidate>
<input type="hidden" name="csrf_token" value="${v.csrf}">
<label for="address">${v.rt(`recover.address.${v.offered}`)}</label>
<input type="${type}" id="address" name="address" value="${v.value ?? ""}" autocomplete="${autocomplete}" autocapitalize="none" spellcheck="false" required maxlength="254"${described ? html` aria-describedby="${described}"` : ""}${v.error ? html` aria-invalid="true"` : ""} autofocus>
${hint ? html`<p class="hint" id="address-hint">${hint}</p>` : ""}
<button type="submit" class="primary">${v.rt("recover.submit")}</button>
</form>
<p class="aside"><a href="${v.backUrl}">${v.rt("recover.back")}</a></p>`;
  return renderPage({ lang: v.lang, title: v.rt("recover.title"), body, switchUrl: v.switchUrl });
}

/**
 * Code entry. `sent` says where the code went, as the person typed it, whether or not an account
 * has it; a spent recovery offers only a new code.
 */
export function codeView(v: TCommon & { sent: string; error?: string; spent?: boolean; againUrl: string; backUrl: string }): string {
  const form = v.spent
    ? ""
    : html`<form method="post" action="${v.action}" novalidate>
<input type="hidden" name="csrf_token" value="${v.csrf}">
<label for="code">${v.rt("code.label")}</label>
<input type="text" id="code" name="code" inputmode="numeric" autocomplete="one-time-code" autocapitalize="none" spellcheck="false" required maxlength="16"${invalidIf(v.error, "code-error")} autofocus>
<button type="submit" class="primary">${v.rt("code.submit")}</button>
</form>`;
  const body = html`<h1>${v.rt("code.title")}</h1>
<p>${v.sent}</p>
${alert("code-error", v.error)}
${form}
<p class="aside"><a href="${v.againUrl}">${v.rt("code.again")}</a></p>
<p class="aside"><a href="${v.backUrl}">${v.rt("recover.back")}</a></p>`;
  return renderPage({ lang: v.lang, title: v.rt("code.title"), body, switchUrl: v.switchUrl });
}

/**
 * The administrator's recovery link: a new password (twice), or why the link no longer works, or
 * that the password is saved. No CSRF field: the link's token is the secret the form proves.
 */
export function linkView(v: { lang: TLang; rt: TRecoveryText; switchUrl: string; action: string; accountUrl: string; t: (key: "pwchange.new" | "pwchange.repeat") => string; state: "form" | "spent" | "done"; problems?: string[] }): string {
  const problems = v.problems ?? [];
  const error = problems.length ? "password-error" : undefined;
  const content =
    v.state === "spent"
      ? html`<p class="alert" role="alert">${v.rt("link.spent")}</p>`
      : v.state === "done"
        ? html`<p role="status">${v.rt("link.done")}</p>
<p class="aside"><a href="${v.accountUrl}">${v.rt("link.signIn")}</a></p>`
        : html`<p>${v.rt("link.lead")}</p>
${problems.length ? html`<div class="alert" role="alert" id="password-error"><ul>${problems.map((p) => html`<li>${p}</li>`)}</ul></div>` : ""}
<form method="post" action="${v.action}" novalidate>
<label for="password">${v.t("pwchange.new")}</label>
<input type="password" id="password" name="password" autocomplete="new-password" required maxlength="1024"${invalidIf(error, "password-error")} autofocus>
<label for="repeat">${v.t("pwchange.repeat")}</label>
<input type="password" id="repeat" name="repeat" autocomplete="new-password" required maxlength="1024">
<button type="submit" class="primary">${v.rt("link.submit")}</button>
</form>`;
  return renderPage({ lang: v.lang, title: v.rt("link.title"), body: html`<h1>${v.rt("link.title")}</h1>
${content}`, switchUrl: v.switchUrl });
}

/**
 * An administrator's link that enrols a passkey: the button (shown by the passkey script where the
 * browser has WebAuthn) creates it; without JavaScript the page says what it needs.
 */
export function passkeyLinkView(v: { lang: TLang; rt: TRecoveryText; switchUrl: string; accountUrl: string; passkey: TPasskeyChoice; state: "form" | "refused" | "spent" | "done"; to?: string }): string {
  const content =
    v.state === "spent"
      ? html`<p class="alert" role="alert">${v.rt("link.spent")}</p>`
      : v.state === "done"
        ? html`<p role="status">${v.rt("passkeyLink.done")}</p>
<p class="aside"><a href="${v.accountUrl}">${v.rt("link.signIn")}</a></p>`
        : html`<p>${v.rt("passkeyLink.lead")}</p>
${v.to ? html`<p class="notice">${v.rt("passkeyLink.account", { to: v.to })}</p>` : ""}
${v.state === "refused" ? html`<p class="alert" role="alert">${v.rt("passkeyLink.refused")}</p>` : ""}
${passkeyForm(v.passkey, "", { button: v.rt("passkeyLink.button"), cancelled: v.rt("passkeyLink.cancelled") })}
<noscript><p class="hint">${v.rt("passkeyLink.noScript")}</p></noscript>`;
  return renderPage({ lang: v.lang, title: v.rt("passkeyLink.title"), body: html`<h1>${v.rt("passkeyLink.title")}</h1>
${content}`, switchUrl: v.switchUrl });
}
