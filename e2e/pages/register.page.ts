import { expect, type Locator, type Page } from "@playwright/test";
import type { TLang } from "./login.page.ts";

const WORDS = {
  en: {
    title: "Create an account",
    family: "Last name",
    given: "First name",
    email: "E-mail",
    phone: "Mobile phone",
    password: "Password",
    repeat: "Repeat the password",
    submit: "Create account",
    codesTitle: "Confirm your contacts",
    emailCode: "Code from the e-mail to",
    phoneCode: "Code from the SMS to",
    confirm: "Confirm",
    resend: "Send a new code",
    doneTitle: "Your account is ready",
  },
  ru: {
    title: "Регистрация",
    family: "Фамилия",
    given: "Имя",
    email: "Электронная почта",
    phone: "Мобильный телефон",
    password: "Пароль",
    repeat: "Пароль ещё раз",
    submit: "Зарегистрироваться",
    codesTitle: "Подтверждение контактов",
    emailCode: "Код из письма на",
    phoneCode: "Код из SMS на",
    confirm: "Подтвердить",
    resend: "Отправить новый код",
    doneTitle: "Учётная запись создана",
  },
};

export type TSignUp = { familyName?: string; givenName?: string; email?: string; phone?: string; password: string; repeat?: string };

/** The self sign-up form ({ctx}/register). */
export class RegisterPage {
  readonly summary: Locator;

  constructor(
    readonly page: Page,
    readonly lang: TLang = "en",
  ) {
    this.summary = page.getByRole("main").getByRole("alert");
  }

  field(name: keyof Pick<(typeof WORDS)["en"], "family" | "given" | "email" | "phone" | "password" | "repeat">): Locator {
    // Labels of optional fields end in "(optional)".
    return this.page.getByLabel(new RegExp(`^${WORDS[this.lang][name]}( \\(.+\\))?$`));
  }

  async expectShown(): Promise<void> {
    await expect(this.page).toHaveURL(/\/register(\?|$)/);
    await expect(this.page.getByRole("heading", { name: WORDS[this.lang].title, level: 1 })).toBeVisible();
  }

  async signUp(p: TSignUp): Promise<void> {
    if (p.familyName) await this.field("family").fill(p.familyName);
    if (p.givenName) await this.field("given").fill(p.givenName);
    if (p.email) await this.field("email").fill(p.email);
    if (p.phone) await this.field("phone").fill(p.phone);
    await this.field("password").fill(p.password);
    await this.field("repeat").fill(p.repeat ?? p.password);
    await this.page.getByRole("button", { name: WORDS[this.lang].submit, exact: true }).click();
  }
}

/** Code entry of a sign-up ({ctx}/register/code): one form per contact that waits. */
export class CodesPage {
  constructor(
    readonly page: Page,
    readonly lang: TLang = "en",
  ) {}

  async expectShown(): Promise<void> {
    await expect(this.page).toHaveURL(/\/register\/code\?signup=/);
    await expect(this.page.getByRole("heading", { name: WORDS[this.lang].codesTitle, level: 1 })).toBeVisible();
  }

  async expectDone(): Promise<void> {
    await expect(this.page.getByRole("heading", { name: WORDS[this.lang].doneTitle, level: 1 })).toBeVisible();
  }

  code(kind: "email" | "phone"): Locator {
    return this.page.getByLabel(WORDS[this.lang][kind === "email" ? "emailCode" : "phoneCode"]);
  }

  form(kind: "email" | "phone"): Locator {
    return this.page.locator("form").filter({ has: this.code(kind) });
  }

  /** The words under a contact's code: what the code stands at, or why it was refused. */
  state(kind: "email" | "phone"): Locator {
    return this.page.locator(`#code-${kind}-state`);
  }

  async enter(kind: "email" | "phone", code: string): Promise<void> {
    await this.code(kind).fill(code);
    await this.form(kind).getByRole("button", { name: WORDS[this.lang].confirm }).click();
  }
}
