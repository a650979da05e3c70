import { expect, test } from "@playwright/test";
import { expectNoSeriousViolations } from "./support/axe.ts";

// An address the service does not serve, outside the API: the service's own page, in the visitor's
// language, with the way to their account, accessible in light and dark.

test("an unknown address answers the service's own 404 page in English and Russian, light and dark", async ({ page, baseURL }) => {
  for (const [lang, title, link] of [
    ["en", "Page not found", "Your account"],
    ["ru", "Страница не найдена", "Ваша учётная запись"],
  ] as const) {
    await page.context().addCookies([{ name: "idp_lang", value: lang, url: baseURL! }]);
    const answer = await page.goto("no-such-page/anywhere");
    expect(answer?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(page.getByRole("link", { name: link })).toHaveAttribute("href", /\/account$/);
    await expect(page.locator(".not-found")).toHaveAttribute("lang", lang);
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expectNoSeriousViolations(page, `the 404 page (${lang}, ${scheme})`);
    }
    await page.emulateMedia({ colorScheme: "light" });
  }
  await page.getByRole("link", { name: "Ваша учётная запись" }).click();
  await expect(page).toHaveURL(/\/account/);
});
