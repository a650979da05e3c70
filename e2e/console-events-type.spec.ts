import { expect, test } from "@playwright/test";
import { EventsPage } from "./pages/events.page.ts";
import { signInAsAdmin } from "./support/admin.ts";
import { expectNoSeriousViolationsInBothSchemes } from "./support/axe.ts";

// The events page's type filter is a combobox: typing a few letters of an event's title (in either
// language) or of its recorded type lists the matching types; Down, Up and Enter pick one, Escape
// closes the list; a pick filters the list through the URL, as the Apply button does.

test("the event type is picked by its title from the keyboard, and filters the list", async ({ page, baseURL }) => {
  // The administrator's own sign-in leaves a user.signed_in event to find.
  await signInAsAdmin(page);
  const events = new EventsPage(page);
  await events.goto();
  const type = page.getByRole("combobox", { name: "Type" });
  const list = page.getByRole("listbox", { name: "Event types" });

  await type.fill("signed i");
  await expect(type).toHaveAttribute("aria-expanded", "true");
  await expect(list.getByRole("option")).toHaveText(["Signed inuser.signed_in", "Signed in with a passkeypasskey.used", "Signed in to a SAML applicationsaml.signed_in"]);
  await expectNoSeriousViolationsInBothSchemes(page, "the events page with the type list open");
  await page.keyboard.press("ArrowDown");
  const option = list.getByRole("option", { name: /user\.signed_in/ });
  await expect(option).toHaveAttribute("aria-selected", "true");
  await expect(type).toHaveAttribute("aria-activedescendant", (await option.getAttribute("id"))!);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/[?&]type=user\.signed_in(&|$)/);
  await expect(type).toHaveValue("user.signed_in");
  await expect(type).toHaveAttribute("aria-expanded", "false");
  await expect(events.rowsOfType("user.signed_in").first()).toBeVisible();
  await expect(events.rows().filter({ hasNotText: "user.signed_in" })).toHaveCount(0);

  // A second type after a comma: found by its recorded name; Escape closes the list and keeps the text.
  await type.fill("user.signed_in,sign_in_fa");
  await expect(list.getByRole("option")).toHaveCount(1);
  await page.keyboard.press("Escape");
  await expect(type).toHaveAttribute("aria-expanded", "false");
  await expect(type).toHaveValue("user.signed_in,sign_in_fa");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/[?&]type=user\.signed_in%2Cuser\.sign_in_failed(&|$)/);

  // In Russian the titles are Russian, and an English title still finds its type.
  await page.context().addCookies([{ name: "idp_lang", value: "ru", url: baseURL! }]);
  await page.goto("console/events");
  await expect(page.getByRole("heading", { name: "События безопасности", level: 1 })).toBeVisible();
  const typeRu = page.getByRole("combobox", { name: "Тип" });
  await typeRu.fill("выход на");
  await expect(page.getByRole("listbox", { name: "Типы событий" }).getByRole("option")).toHaveText(["Выход на всех устройствахuser.sessions_reset", "Выход на устройствеuser.device_removed"]);
  // Down to the first option, then Up wraps round to the last.
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowUp");
  await expect(page.getByRole("option", { name: /Выход на устройстве/ })).toHaveAttribute("aria-selected", "true");
  await typeRu.fill("Signed i");
  await expect(page.getByRole("listbox", { name: "Типы событий" }).getByRole("option")).toHaveText(["Входuser.signed_in", "Вход по ключу входаpasskey.used", "Вход в приложение SAMLsaml.signed_in"]);
  await expectNoSeriousViolationsInBothSchemes(page, "the events page in Russian with the type list open");
});
