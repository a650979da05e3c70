import { html } from "../../html/html.ts";
import type { TLang } from "../../html/texts.ts";
import type { TText } from "./i18n.ts";
import { renderPage } from "../../html/layout.ts";
import { passkeyForm, type TPasskeyChoice } from "./views.ts";

// The sign-in's further steps after a right password: the second factor, and the password change an
// administrator asked for. Same rules as the sign-in form: works without JavaScript, the refusal is
// announced by an alert and tied to the field it is about.

type TStep = { lang: TLang; t: TText; switchUrl?: string; clientName: string; action: string; csrf: string };

const refusal = (id: string, text: string | undefined) => (text ? html`<p class="alert" role="alert" id="${id}">${text}</p>` : "");
const invalidIf = (error: string | undefined, id: string) => (error ? html` aria-invalid="true" aria-describedby="${id}"` : "");

/**
 * The one-time code of the account's generator (TOTP or HOTP), or with `backup` one of its backup
 * codes: a form of its own, so a phone's keyboard offers letters for it and digits for the other.
 * `otherUrl` switches between the two. An account with a passkey is offered it as well.
 */
export function otpStepView(v: TStep & { error?: string; backup?: boolean; otherUrl: string; passkey?: TPasskeyChoice }): string {
  const field = v.backup
    ? html`<label for="otp">${v.t("otp.backupCode")}</label>
<input type="text" id="otp" name="otp" autocomplete="off" autocapitalize="none" spellcheck="false" required maxlength="32"${invalidIf(v.error, "otp-error")} autofocus>
<p class="hint">${v.t("otp.backupHint")}</p>`
    : html`<label for="otp">${v.t("otp.code")}</label>
<input type="text" id="otp" name="otp" inputmode="numeric" autocomplete="one-time-code" autocapitalize="none" spellcheck="false" required maxlength="16"${invalidIf(v.error, "otp-error")} autofocus>
<p class="hint">${v.t("otp.hint")}</p>`;
  const body = html`<h1>${v.t("otp.title")}</h1>
<p class="muted">${v.t("login.to", { client: v.clientName })}</p>
${refusal("otp-error", v.error)}
<form method="post" action="${v.action}" novalidate>
<input type="hidden" name="csrf_token" value="${v.csrf}">
${field}
<button type="submit" class="primary">${v.t("otp.submit")}</button>
</form>
${v.passkey ? passkeyForm(v.passkey, v.csrf, { button: v.t("otp.passkey"), cancelled: v.t("otp.passkeyCancelled") }) : ""}
<p><a href="${v.otherUrl}">${v.t(v.backup ? "otp.useApp" : "otp.useBackup")}</a></p>`;
  return renderPage({ lang: v.lang, title: v.t("otp.title"), body, switchUrl: v.switchUrl });
}

/**
 * A new password, asked for when an administrator set needPasswordChange, or at the end of a
 * recovery (`words` are then the recovery's); `problems` are the policy's words.
 */
export function passwordChangeStepView(v: TStep & { problems: string[]; words?: { title: string; why: string; submit: string } }): string {
  const error = v.problems.length ? "password-error" : undefined;
  const words = v.words ?? { title: v.t("pwchange.title"), why: v.t("pwchange.why"), submit: v.t("pwchange.submit") };
  const body = html`<h1>${words.title}</h1>
<p>${words.why}</p>
${v.problems.length ? html`<div class="alert" role="alert" id="password-error"><ul>${v.problems.map((p) => html`<li>${p}</li>`)}</ul></div>` : ""}
<form method="post" action="${v.action}" novalidate>
<input type="hidden" name="csrf_token" value="${v.csrf}">
<label for="password">${v.t("pwchange.new")}</label>
<input type="password" id="password" name="password" autocomplete="new-password" required maxlength="1024"${invalidIf(error, "password-error")} autofocus>
<label for="repeat">${v.t("pwchange.repeat")}</label>
<input type="password" id="repeat" name="repeat" autocomplete="new-password" required maxlength="1024">
<button type="submit" class="primary">${words.submit}</button>
</form>`;
  return renderPage({ lang: v.lang, title: words.title, body, switchUrl: v.switchUrl });
}
