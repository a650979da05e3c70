import type { TInstruction } from "../../registration/registration.schemas.ts";
import type { TFieldProblem, TSignUpField } from "../signup-form.ts";
import { html, type THtml } from "../../html/html.ts";
import type { TLang } from "../../html/texts.ts";
import { waitText, type TText } from "./i18n.ts";
import { renderPage } from "../../html/layout.ts";
import { fieldLabel, type TSignUpText } from "./signup-i18n.ts";
import { passkeyForm, type TPasskeyChoice } from "./views.ts";

type TCommon = { lang: TLang; t: TText; st: TSignUpText; switchUrl?: string };

const INPUT_TYPE: Partial<Record<TSignUpField["type"], string>> = { email: "email", phone: "tel", date: "date" };
// What browsers and password managers fill in (HTML autofill field names).
const AUTOCOMPLETE: Record<string, string> = { family_name: "family-name", given_name: "given-name", middle_name: "additional-name", email: "email", phone_number: "tel" };
const CONTACTS = new Set(["email", "phone_number"]);

const describedBy = (...ids: (string | false | undefined)[]) => ids.filter(Boolean).join(" ") || undefined;
const attr = (name: string, value: string | undefined) => (value === undefined ? "" : html` ${{ markup: name }}="${value}"`);
const flag = (name: string, on: boolean) => (on ? html` ${{ markup: name }}` : "");

type TFieldState = { value: string; problem?: string; hint?: string; autofocus: boolean };

/** One input as the page draws it: an attribute, or a password. */
type TInputSpec = { name: string; label: string; type: string; required: boolean; autocomplete?: string; inputmode?: string; maxLength?: number; optionalText?: string };

/** An input with its label, hint and error, each tied to it for screen readers. */
function inputField(spec: TInputSpec, s: TFieldState): THtml {
  const hintId = s.hint ? `${spec.name}-hint` : undefined;
  const errorId = s.problem ? `${spec.name}-error` : undefined;
  const label = html`<label for="${spec.name}">${spec.label}${spec.optionalText ? html` <span class="optional">(${spec.optionalText})</span>` : ""}</label>`;
  const common = html`${attr("aria-describedby", describedBy(hintId, errorId))}${flag('aria-invalid="true"', !!s.problem)}${flag("required", spec.required)}${flag("autofocus", s.autofocus)}`;
  const hint = s.hint ? html`<p class="hint" id="${hintId}">${s.hint}</p>` : "";
  const error = s.problem ? html`<p class="field-error" id="${errorId}">${s.problem}</p>` : "";
  if (spec.type === "checkbox") {
    return html`<div class="check"><input type="checkbox" id="${spec.name}" name="${spec.name}"${flag("checked", s.value === "on")}${common}>${label}</div>${hint}${error}`;
  }
  // A password is never filled in again after a refusal.
  const value = spec.type === "password" ? "" : html` value="${s.value}"`;
  const input = html`<input type="${spec.type}" id="${spec.name}" name="${spec.name}"${value}${attr("autocomplete", spec.autocomplete)}${attr("maxlength", spec.maxLength?.toString())}${attr("inputmode", spec.inputmode)}${common}>`;
  return html`${label}
${input}
${hint}${error}
`;
}

/** `markOptional`: false for the contacts, of which one is needed and neither alone (their fieldset says so). */
function attributeInput(v: TCommon, f: TSignUpField, s: TFieldState, markOptional = true): THtml {
  return inputField(
    {
      name: f.name,
      label: fieldLabel(v.st, f.name),
      type: f.type === "boolean" ? "checkbox" : (INPUT_TYPE[f.type] ?? "text"),
      required: f.required,
      autocomplete: AUTOCOMPLETE[f.name],
      inputmode: f.type === "number" ? "decimal" : undefined,
      maxLength: f.maxLength,
      optionalText: f.required || !markOptional ? undefined : v.st("signup.optional"),
    },
    s,
  );
}

/** The refusals, listed at the top with links to their fields (as GOV.UK's error summary does). */
function problemSummary(v: TCommon, problems: TFieldProblem[], onForm: Set<string>): THtml | "" {
  if (!problems.length) return "";
  const item = (p: TFieldProblem) => (onForm.has(p.field) ? html`<li><a href="#${p.field}">${p.summary ?? p.text}</a></li>` : html`<li>${p.summary ?? p.text}</li>`);
  return html`<div class="alert" role="alert" id="form-error">${v.st("signup.fix")}<ul>${problems.map(item)}</ul></div>`;
}

export type TRegisterView = TCommon & {
  clientName?: string;
  action: string;
  csrf: string;
  fields: TSignUpField[];
  values: Record<string, string>;
  problems: TFieldProblem[];
  /** A refusal of the whole form (too many sign-ups), not of a field. */
  refusal?: string;
  signInUrl?: string;
  minPassword: number;
  /** Offer "Sign up with a passkey instead" (shown by the passkey script where the browser has WebAuthn). */
  passkeyScript?: string;
  /** What else the sign-up does (an external account it links). */
  notice?: string;
};

export function registerView(v: TRegisterView): string {
  const problemOf = (field: string) => v.problems.find((p) => p.field === field)?.text;
  const onForm = new Set([...v.fields.map((f) => f.name), "password", "password_repeat"]);
  // Focus starts on the first field to correct, or on the first field of an empty form.
  const focus = v.problems.find((p) => onForm.has(p.field))?.field ?? v.fields[0]?.name;
  const state = (name: string, hint?: string): TFieldState => ({ value: v.values[name] ?? "", problem: problemOf(name), hint, autofocus: focus === name });
  const own = v.fields.filter((f) => !CONTACTS.has(f.name));
  const contacts = v.fields.filter((f) => CONTACTS.has(f.name));
  const password = (name: "password" | "password_repeat", label: string, hint?: string) =>
    inputField({ name, label, type: "password", required: true, autocomplete: "new-password", maxLength: 1024 }, state(name, hint));
  const body = html`<h1>${v.st("signup.title")}</h1>
${v.clientName ? html`<p class="muted">${v.t("login.to", { client: v.clientName })}</p>` : ""}
${v.notice ? html`<p class="notice">${v.notice}</p>` : ""}
${v.refusal ? html`<p class="alert" role="alert" id="form-error">${v.refusal}</p>` : problemSummary(v, v.problems, onForm)}
<form method="post" action="${v.action}" novalidate>
<input type="hidden" name="csrf_token" value="${v.csrf}">
<p class="hint">${v.st("signup.required")}</p>
${own.map((f) => attributeInput(v, f, state(f.name)))}
<fieldset aria-describedby="contacts-hint">
<legend>${v.st("signup.contacts")}</legend>
<p class="hint" id="contacts-hint">${v.st("signup.contactsHint")}</p>
${contacts.map((f) => attributeInput(v, f, state(f.name, f.name === "phone_number" ? v.st("signup.phoneHint") : undefined), false))}
</fieldset>
${password("password", v.st("signup.password"), v.st("signup.passwordHint", { min: String(v.minPassword) }))}
${password("password_repeat", v.st("signup.passwordRepeat"))}
<button type="submit" class="primary">${v.st("signup.submit")}</button>
${v.passkeyScript ? html`<button type="submit" name="method" value="passkey" class="secondary" data-webauthn-only hidden>${v.st("signup.withPasskey")}</button>` : ""}
</form>
${v.passkeyScript ? html`<script src="${v.passkeyScript}" defer></script>` : ""}
${v.signInUrl ? html`<p class="aside">${v.st("signup.haveAccount")} <a href="${v.signInUrl}">${v.st("signup.signIn")}</a></p>` : ""}`;
  return renderPage({ lang: v.lang, title: v.st("signup.title"), body, switchUrl: v.switchUrl });
}

export type TWaitingContactView = { kind: "email" | "phone"; shown: string; instruction: TInstruction; resendInS: number };

/** What a contact's code stands at, in words. */
function codeState(v: TCommon, c: TWaitingContactView, now: number): string {
  const i = c.instruction;
  if (i.name.endsWith("-no-attempts")) return v.st("codes.noAttempts");
  if (i.name.endsWith("-expired")) return v.st("codes.expired");
  if (i.name.endsWith("-try-again")) return v.st("codes.wrong", { n: String(i.attemts) });
  return v.st("codes.valid", { wait: waitText(v.t, Math.max(1, (i.exp ?? 0) - Math.floor(now / 1000))) });
}

export type TCodesView = TCommon & {
  action: string;
  csrf: string;
  contacts: TWaitingContactView[];
  /** The contact the last submission was about, and what came of it. */
  outcome?: { kind: "email" | "phone"; text?: string; refused: boolean };
  /** A message about the whole sign-up rather than one contact. */
  notice?: { text: string; refused: boolean };
};

function contactForm(v: TCodesView, c: TWaitingContactView, now: number, autofocus: boolean): THtml {
  const id = `code-${c.kind}`;
  const usable = !/-(expired|no-attempts)$/.test(c.instruction.name);
  const outcome = v.outcome?.kind === c.kind ? v.outcome : undefined;
  const refused = !!outcome?.refused;
  // A refusal is announced at once (alert); the code's ordinary state is read with the field.
  const stateText = (refused && outcome?.text) || codeState(v, c, now);
  const label = v.st(c.kind === "email" ? "codes.email" : "codes.phone", { to: c.shown });
  return html`<form method="post" action="${v.action}" class="contact" novalidate>
<input type="hidden" name="csrf_token" value="${v.csrf}">
<input type="hidden" name="contact" value="${c.kind}">
${usable
    ? html`<label for="${id}">${label}</label>
<input type="text" id="${id}" name="code" inputmode="numeric" autocomplete="one-time-code" autocapitalize="none" spellcheck="false" maxlength="32" aria-describedby="${id}-state"${flag('aria-invalid="true"', refused)}${flag("autofocus", autofocus)}>`
    : html`<p class="label">${label}</p>`}
<p class="${refused ? "field-error" : "hint"}" id="${id}-state"${flag('role="alert"', refused)}>${stateText}</p>
${c.resendInS > 0 ? html`<p class="hint">${v.st("codes.resendIn", { wait: waitText(v.t, c.resendInS) })}</p>` : ""}
<div class="actions">
${usable ? html`<button type="submit" name="action" value="confirm" class="primary">${v.st("codes.confirm")}</button>` : ""}
<button type="submit" name="action" value="resend" class="${usable ? "secondary" : "primary"}"${flag("autofocus", autofocus && !usable)}>${v.st("codes.resend")}</button>
</div>
</form>`;
}

export function codesView(v: TCodesView, now = Date.now()): string {
  // Focus goes to the contact the person just dealt with, else to the first one.
  const focused = v.contacts.find((c) => c.kind === v.outcome?.kind)?.kind ?? v.contacts[0]?.kind;
  const note = v.notice ?? (v.outcome && !v.outcome.refused && v.outcome.text ? { text: v.outcome.text, refused: false } : undefined);
  const body = html`<h1>${v.st("codes.title")}</h1>
<p>${v.st("codes.intro")}</p>
${note ? html`<p class="${note.refused ? "alert" : "notice"}" role="${note.refused ? "alert" : "status"}">${note.text}</p>` : ""}
${v.contacts.map((c) => contactForm(v, c, now, c.kind === focused))}`;
  return renderPage({ lang: v.lang, title: v.st("codes.title"), body, switchUrl: v.switchUrl });
}

/** The last step of a sign-up with a passkey: the account exists and waits for its passkey. */
export function signUpPasskeyView(v: TCommon & { passkey: TPasskeyChoice; csrf: string; refused: boolean }): string {
  const body = html`<h1>${v.st("passkey.title")}</h1>
<p>${v.st("passkey.lead")}</p>
${v.refused ? html`<p class="alert" role="alert">${v.st("passkey.refused")}</p>` : ""}
${passkeyForm(v.passkey, v.csrf, { button: v.st("passkey.button"), cancelled: v.st("passkey.cancelled") })}
<noscript><p class="hint">${v.st("passkey.noScript")}</p></noscript>`;
  return renderPage({ lang: v.lang, title: v.st("passkey.title"), body, switchUrl: v.switchUrl });
}

export function signUpDoneView(v: TCommon & { fromApplication: boolean }): string {
  const body = html`<h1>${v.st("done.title")}</h1>
<p role="status">${v.st("done.signedIn")}</p>
${v.fromApplication ? html`<p>${v.st("done.back")}</p>` : ""}`;
  return renderPage({ lang: v.lang, title: v.st("done.title"), body, switchUrl: v.switchUrl });
}
