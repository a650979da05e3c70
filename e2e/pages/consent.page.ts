import { expect, type Locator, type Page } from "@playwright/test";
import type { TLang } from "./login.page.ts";

const WORDS = { en: { title: "Allow access", allow: "Allow", deny: "Deny" }, ru: { title: "Разрешение доступа", allow: "Разрешить", deny: "Отказать" } };

/** The consent page ({ctx}/consent) of an application that is not first-party. */
export class ConsentPage {
  readonly allow: Locator;
  readonly deny: Locator;

  constructor(
    readonly page: Page,
    readonly lang: TLang = "en",
  ) {
    this.allow = page.getByRole("button", { name: WORDS[lang].allow });
    this.deny = page.getByRole("button", { name: WORDS[lang].deny });
  }

  async expectShown(): Promise<void> {
    await expect(this.page).toHaveURL(/\/consent\?flow=/);
    await expect(this.page.getByRole("heading", { name: WORDS[this.lang].title, level: 1 })).toBeVisible();
  }
}
