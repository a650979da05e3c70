import { describe, expect, it } from "vitest";
import { textsFor } from "./i18n.ts";
import { signUpTextsFor } from "./signup-i18n.ts";
import { codesView, type TWaitingContactView } from "./signup-views.ts";

const now = Date.UTC(2026, 10, 27, 12, 0, 0);
const common = (lang: "en" | "ru") => ({ lang, t: textsFor(lang), st: signUpTextsFor(lang), action: "https://id.example/idp/register/code?signup=x", csrf: "c" });
const email = (name: TWaitingContactView["instruction"]["name"], extra: Partial<TWaitingContactView> = {}): TWaitingContactView => ({
  kind: "email",
  shown: "a@b.ru",
  instruction: { name, email: "a@b.ru", attemts: name.endsWith("no-attempts") ? 0 : 2, ...(name.endsWith("expired") ? {} : { exp: now / 1000 + 300 }) },
  resendInS: 0,
  ...extra,
});

describe("code entry page", () => {
  it("says what a code stands at in words, in both languages", () => {
    expect(codesView({ ...common("en"), contacts: [email("eml-enter-code")] }, now)).toContain(">The code is valid for 5 min.<");
    expect(codesView({ ...common("en"), contacts: [email("eml-try-again")] }, now)).toContain(">Wrong code. Attempts left: 2.<");
    expect(codesView({ ...common("ru"), contacts: [email("eml-try-again")] }, now)).toContain(">Неверный код. Осталось попыток: 2.<");
    expect(codesView({ ...common("en"), contacts: [email("eml-enter-code", { resendInS: 42 })] }, now)).toContain(">You can ask for a new code in 42 s.<");
  });

  it("offers only a new code once the code expired or its attempts are spent", () => {
    for (const [name, words] of [
      ["eml-expired", "The code has expired. Ask for a new one."],
      ["eml-no-attempts", "Wrong code, and no attempts are left. Ask for a new code."],
    ] as const) {
      const page = codesView({ ...common("en"), contacts: [email(name)] }, now);
      expect(page).toContain(`>${words}<`);
      expect(page).not.toContain('name="code"');
      expect(page).not.toContain('value="confirm"');
      expect(page).toMatch(/<button type="submit" name="action" value="resend" class="primary" autofocus>Send a new code<\/button>/);
    }
    const ru = codesView({ ...common("ru"), contacts: [email("eml-expired")] }, now);
    expect(ru).toContain(">Срок действия кода истёк. Запросите новый.<");
  });

  it("announces a refusal of the contact just submitted, and a success as a status", () => {
    const refused = codesView({ ...common("en"), contacts: [email("eml-try-again")], outcome: { kind: "email", refused: true } }, now);
    expect(refused).toMatch(/aria-invalid="true" autofocus>\n<p class="field-error" id="code-email-state" role="alert">Wrong code\. Attempts left: 2\.<\/p>/);
    const resent = codesView({ ...common("en"), contacts: [email("eml-enter-code")], outcome: { kind: "email", refused: false, text: "A new code has been sent to a@b.ru." } }, now);
    expect(resent).toContain('<p class="notice" role="status">A new code has been sent to a@b.ru.</p>');
    expect(resent).not.toContain('role="alert"');
  });
});
