import { expect, test } from "@playwright/test";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { createPerson, signInToPortal } from "./support/portal.ts";

// The portal's pages in Russian and in the dark scheme: their words, and no serious accessibility
// violation in either language or scheme.

const PAGES = [
  { path: "account/profile", ru: "Профиль", en: "Profile" },
  { path: "account/security-question", ru: "Контрольный вопрос", en: "Security question" },
  { path: "account/devices", ru: "Устройства", en: "Devices" },
  { path: "account/consents", ru: "Разрешения", en: "Consents" },
  { path: "account/events", ru: "События", en: "Events" },
  { path: "account/linked-accounts", ru: "Связанные учётные записи", en: "Linked accounts" },
  { path: "account/passkeys", ru: "Ключи входа", en: "Passkeys" },
];

test("every portal page speaks Russian when asked, and passes axe in both languages, light and dark", async ({ browser, page }) => {
  // 28 pages, each read by axe: more than the default minute on a busy machine.
  test.slow();
  const person = await createPerson(browser);
  await signInToPortal(page, person.sub);
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const lang of ["en", "ru"] as const) {
      // The language switch's cookie wins over Accept-Language.
      await page.context().addCookies([{ name: "idp_lang", value: lang, domain: new URL(page.url()).hostname, path: "/" }]);
      for (const p of PAGES) {
        await page.goto(p.path);
        await expect(page.getByRole("heading", { level: 1, name: p[lang] })).toBeVisible();
        await expect(page.getByRole("main").getByRole("status").filter({ hasText: /Loading|Загрузка/ })).toHaveCount(0);
        await expectNoSeriousViolations(page, `${p.path} (${lang}, ${scheme})`);
      }
    }
  }
});
