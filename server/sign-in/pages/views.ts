import { html } from "../../html/html.ts";
import { renderPage } from "../../html/layout.ts";
import type { TLang } from "../../html/texts.ts";
import { scopeText, type TText } from "./i18n.ts";

type TCommon = { lang: TLang; t: TText; switchUrl?: string };

/** The alert that announces a refusal to screen readers as soon as the page loads. */
const alert = (message: string | undefined) => (message ? html`<p class="alert" role="alert" id="form-error">${message}</p>` : "");

/** The external providers a sign-in page offers: one form, a button per provider. */
export type TExternalChoice = { action: string; providers: { label: string; name: string }[] };

export function loginView(
  v: TCommon & { clientName: string; action: string; csrf: string; identifier?: string; error?: string; qrAction?: string; registerUrl?: string; registerLabel?: string; recoverUrl?: string; notice?: string; external?: TExternalChoice; backUrl?: string; passkey?: TPasskeyChoice; passkeyOnly?: boolean },
): string {
  if (v.passkeyOnly && v.passkey) return passkeyOnlyView({ ...v, passkey: v.passkey });
  const invalid = v.error ? "true" : undefined;
  const described = v.error ? "form-error" : undefined;
  // Focus goes where typing continues: the password once an identifier is there.
  const focusPassword = !!v.identifier;
  const body = html`<h1>${v.t("login.title")}</h1>
<p class="muted">${v.t("login.to", { client: v.clientName })}</p>
${v.notice ? html`<p class="notice" id="login-notice">${v.notice}</p>` : ""}
${alert(v.error)}
<form method="post" action="${v.action}" novalidate>
<input type="hidden" name="csrf_token" value="${v.csrf}">
<label for="identifier">${v.t("login.identifier")}</label>
<input type="text" id="identifier" name="identifier" value="${v.identifier ?? ""}" autocomplete="${v.passkey ? "username webauthn" : "username"}" autocapitalize="none" spellcheck="false" required maxlength="254" aria-describedby="${["identifier-hint", described].filter(Boolean).join(" ")}"${invalid ? html` aria-invalid="true"` : ""}${focusPassword ? "" : html` autofocus`}>
<p class="hint" id="identifier-hint">${v.t("login.identifierHint")}</p>
<label for="password">${v.t("login.password")}</label>
<input type="password" id="password" name="password" autocomplete="current-password" required maxlength="1024"${described ? html` aria-describedby="form-error"` : ""}${invalid ? html` aria-invalid="true"` : ""}${focusPassword ? html` autofocus` : ""}>
<button type="submit" class="primary">${v.t("login.submit")}</button>
</form>
${v.recoverUrl ? html`<p class="aside"><a href="${v.recoverUrl}">${v.t("login.forgot")}</a></p>` : ""}
${v.passkey ? passkeyForm(v.passkey, v.csrf, { button: v.t("login.passkey"), cancelled: v.t("login.passkeyCancelled") }) : ""}
${v.qrAction ? qrStartForm(v.qrAction, v.csrf, v.t("login.qr"), "secondary") : ""}
${v.external?.providers.length ? externalForm(v.t, v.external, v.csrf) : ""}
${v.registerUrl ? html`<p class="aside">${v.t("login.noAccount")} <a href="${v.registerUrl}">${v.registerLabel ?? v.t("login.register")}</a></p>` : ""}
${v.backUrl ? html`<p class="aside"><a href="${v.backUrl}">${v.t("login.otherWay")}</a></p>` : ""}`;
  return renderPage({ lang: v.lang, title: v.t("login.title"), body, switchUrl: v.switchUrl });
}

/**
 * The sign-in page when the application asked for a passkey (acr_values=phr): its button and nothing
 * else, as no other way in would do. Without WebAuthn or JavaScript the button stays hidden, and the
 * hint says why.
 */
function passkeyOnlyView(v: TCommon & { clientName: string; csrf: string; error?: string; passkey: TPasskeyChoice; registerUrl?: string }): string {
  const body = html`<h1>${v.t("login.title")}</h1>
<p class="muted">${v.t("login.to", { client: v.clientName })}</p>
<p class="notice" id="login-notice">${v.t("login.passkeyOnly", { client: v.clientName })}</p>
${alert(v.error)}
${passkeyForm(v.passkey, v.csrf, { button: v.t("login.passkey"), cancelled: v.t("login.passkeyCancelled") })}
<p class="hint">${v.t("login.passkeyNeedsScript")}</p>
${v.registerUrl ? html`<p class="aside">${v.t("login.noAccount")} <a href="${v.registerUrl}">${v.t("login.register")}</a></p>` : ""}`;
  return renderPage({ lang: v.lang, title: v.t("login.title"), body, switchUrl: v.switchUrl });
}

/** Where the passkey button asks for options and sends the answer; `create` registers a new passkey instead of signing in with one. */
export type TPasskeyChoice = { action: string; options: string; script: string; ceremony?: "get" | "create" };

/**
 * Sign-in with a passkey: the button stays hidden unless the script finds WebAuthn in the browser
 * (where the login field is marked for it, the browser also offers passkeys in the field's autofill),
 * so without JavaScript the page is the password form it always was. The script fills in the
 * authenticator's answer and submits the form, so the answer arrives as a normal POST.
 */
export function passkeyForm(passkey: TPasskeyChoice, csrf: string, words: { button: string; cancelled: string }) {
  return html`<form method="post" action="${passkey.action}" id="passkey-form" data-options="${passkey.options}" data-ceremony="${passkey.ceremony ?? "get"}" data-cancelled="${words.cancelled}">
<input type="hidden" name="csrf_token" value="${csrf}">
<input type="hidden" name="answer" value="">
<button type="button" class="${passkey.ceremony === "create" ? "primary" : "secondary"}" hidden>${words.button}</button>
<p class="hint" role="status"></p>
</form>
<script src="${passkey.script}" defer></script>`;
}

/** Sign-in at an external provider: a POST, as it starts a request there on this flow's behalf. */
function externalForm(t: TText, choice: TExternalChoice, csrf: string) {
  return html`<form method="post" action="${choice.action}" aria-labelledby="external-heading">
<p class="label" id="external-heading">${t("login.externalHeading")}</p>
<input type="hidden" name="csrf_token" value="${csrf}">
${choice.providers.map((p) => html`<button type="submit" name="fp" value="${p.label}" class="secondary">${t("login.with", { provider: p.name })}</button>`)}
</form>`;
}

/** A button that shows a new QR code for signing in from another device (a POST: it issues a code). */
export function qrStartForm(action: string, csrf: string, label: string, kind: "primary" | "secondary") {
  return html`<form method="post" action="${action}">
<input type="hidden" name="csrf_token" value="${csrf}">
<button type="submit" class="${kind}">${label}</button>
</form>`;
}

export function consentView(v: TCommon & { clientName: string; userName: string; scopes: string[]; action: string; csrf: string }): string {
  const body = html`<h1>${v.t("consent.title")}</h1>
<p>${v.t("consent.asks", { client: v.clientName })}</p>
<ul class="scopes">${v.scopes.map((s) => html`<li>${scopeText(v.t, s)}</li>`)}</ul>
<p class="muted">${v.t("consent.signedInAs", { user: v.userName })} ${v.t("consent.note")}</p>
<form method="post" action="${v.action}">
<input type="hidden" name="csrf_token" value="${v.csrf}">
<div class="actions">
<button type="submit" name="decision" value="allow" class="primary" autofocus>${v.t("consent.allow")}</button>
<button type="submit" name="decision" value="deny" class="secondary">${v.t("consent.deny")}</button>
</div>
</form>`;
  return renderPage({ lang: v.lang, title: v.t("consent.title"), body, switchUrl: v.switchUrl });
}
