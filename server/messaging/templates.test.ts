import { describe, expect, it } from "vitest";
import { maskRecipient } from "./recipient-mask.ts";
import { pickLocale, renderTemplate, TEMPLATE_NAMES } from "./templates.ts";

describe("message templates", () => {
  it("writes Russian unless English is asked for", () => {
    expect(pickLocale(undefined)).toBe("ru");
    expect(pickLocale("de")).toBe("ru");
    expect(pickLocale("en-GB")).toBe("en");
    expect(pickLocale("EN")).toBe("en");
  });

  it("renders a code e-mail with a subject and the lifetime in the language's plural", () => {
    const ru = renderTemplate("registration_email_code", "email", "ru", { code: "123456", minutes: 21 });
    expect(ru.subject).toBe("Код для завершения регистрации");
    expect(ru.text).toContain("123456");
    expect(ru.text).toContain("21 минуту");
    expect(renderTemplate("registration_email_code", "email", "ru", { code: "1", minutes: 3 }).text).toContain("3 минуты");
    const en = renderTemplate("confirm_email_code", "email", "en", { code: "654321", minutes: 1 });
    expect(en).toEqual({
      subject: "Your e-mail confirmation code",
      text: "Your confirmation code: 654321\n\nThe code is valid for 1 minute. If you did not give this address, ignore this message.\n",
    });
  });

  it("renders SMS without a subject", () => {
    expect(renderTemplate("registration_phone_code", "sms", "ru", { code: "777000", minutes: 10 })).toEqual({
      subject: null,
      text: "Код регистрации: 777000. Действует 10 минут. Никому не сообщайте код.",
    });
  });

  it("has a form for every template and the test message on both channels", () => {
    expect(TEMPLATE_NAMES.sort()).toEqual(["account_notice", "confirm_email_code", "confirm_phone_code", "new_password", "passkey_invite", "recovery_email_code", "recovery_invite", "recovery_phone_code", "registration_email_code", "registration_phone_code", "test_message"]);
    expect(renderTemplate("test_message", "sms", "en", {}).text).not.toContain("\n");
    expect(renderTemplate("test_message", "email", "ru", {}).subject).toBe("Проверка доставки");
  });

  it("renders the recovery link message by e-mail and SMS, with how long it works", () => {
    const params = { link: "https://id.example.test/login/recover/link?t=abc&lang=en", hours: 24 };
    const mail = renderTemplate("recovery_invite", "email", "en", params);
    expect(mail.subject).toBe("Set a new password for your account");
    expect(mail.text).toContain(`\n\n${params.link}\n\n`);
    expect(mail.text).toContain("The link works once, for 24 hours.");
    expect(renderTemplate("recovery_invite", "sms", "ru", params).text).toBe(`Новый пароль можно задать по ссылке (24 ч, один раз): ${params.link}`);
    expect(() => renderTemplate("recovery_invite", "email", "en", { link: "javascript:alert(1)x", hours: 24 })).toThrow();
  });

  it("renders a backup-code notice with how many codes are left", () => {
    const mail = renderTemplate("account_notice", "email", "en", { kind: "backup_code_used", when: "2026-11-28T03:41:07.123Z", from: null, device: null, detail: "9 / 10" });
    expect(mail.subject).toBe("A backup code was used to sign in");
    expect(mail.text).toContain("Codes left: 9 / 10");
  });

  it("renders an account notice in both languages and channels, with what, when, from where and what to do", () => {
    const params = { kind: "password_changed", when: "2026-11-28T03:41:07.123Z", from: "198.51.100.7", device: "Firefox, Linux", detail: null } as const;
    expect(renderTemplate("account_notice", "email", "en", params)).toEqual({
      subject: "Your password was changed",
      text:
        "Your password was changed.\n\nWhen: 2026-11-28 03:41 UTC\nFrom: 198.51.100.7, Firefox, Linux\n\n" +
        "If this was you, there is nothing more to do. If it was not, change your password in your account now, sign out of every device there, and tell your administrator.\n",
    });
    const ru = renderTemplate("account_notice", "email", "ru", { ...params, kind: "external_linked", from: null, device: null, detail: "oidc:corp" });
    expect(ru.subject).toBe("К учётной записи привязан внешний аккаунт");
    expect(ru.text).toContain("Откуда: неизвестно\nЧто именно: oidc:corp");
    expect(renderTemplate("account_notice", "sms", "ru", params).text).toBe("Пароль вашей учётной записи изменён (2026-11-28 03:41 UTC). Если это не вы, смените пароль.");
    expect(() => renderTemplate("account_notice", "email", "en", { ...params, kind: "unknown" as never })).toThrow();
  });

  it("refuses a template on a channel it has no form for, and wrong params", () => {
    expect(() => renderTemplate("confirm_phone_code", "email", "ru", { code: "1", minutes: 5 })).toThrow("has no email form");
    expect(() => renderTemplate("confirm_email_code", "email", "ru", { code: "", minutes: 5 })).toThrow();
    expect(() => renderTemplate("confirm_email_code", "email", "ru", { code: "1", minutes: 0 })).toThrow();
  });

  it("masks recipients for logs", () => {
    expect(maskRecipient("alice@example.com")).toBe("a***@example.com");
    expect(maskRecipient("+79161234567")).toBe("+7********67");
    expect(maskRecipient("123")).toBe("***");
  });
});
