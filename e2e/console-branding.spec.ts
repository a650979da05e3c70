import { expect, test, type Page } from "@playwright/test";
import { BrandingPage } from "./pages/branding.page.ts";
import { SignInPage } from "./pages/sign-in.page.ts";
import { signInAsAdmin, uniqueTag } from "./support/admin.ts";
import { expectNoSeriousViolations, expectNoSeriousViolationsInBothSchemes } from "./support/axe.ts";

// An administrator gives the sign-in pages a name, an accent colour, a logo and a terms link in the
// console; a visitor's sign-in page shows them at once, under the pages' strict CSP. The branding is
// reset at the end: every other spec (one server, one worker) expects the built-in look.

// A 1×1 PNG, and an SVG that carries a script (refused: it is not a raster image).
const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201ffa1d9d4b20000000049454e44ae426082", "hex");
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
const ACCENT = "#7a1fa2";

const VISITOR = {
  en: { title: "Sign in", submit: "Sign in", terms: "Terms of use", privacy: "Privacy policy" },
  ru: { title: "Вход", submit: "Войти", terms: "Условия использования", privacy: "Политика конфиденциальности" },
};

/** The sign-in page a signed-out visitor reaches, with what its CSP refused collected as it loads. */
async function openSignIn(page: Page, lang: "en" | "ru" = "en"): Promise<{ violations: () => Promise<string[]> }> {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  await new SignInPage(page).goto();
  await expect(page).toHaveURL(/\/login\?/);
  await expect(page.getByRole("heading", { name: VISITOR[lang].title, exact: true })).toBeVisible();
  return { violations: async () => [...errors, ...(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations))] };
}

test("an administrator brands the sign-in pages in the console; a visitor sees name, colour, logo and terms link", async ({ page, browser, baseURL }) => {
  const name = `Acme ${uniqueTag()}`;
  await signInAsAdmin(page);
  const branding = new BrandingPage(page);
  try {
    await branding.goto();
    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme });
      await expectNoSeriousViolations(page, `the branding page (${colorScheme})`);
    }
    await page.emulateMedia({ colorScheme: "light" });

    // An SVG is refused by its bytes; nothing is stored.
    await branding.uploadLogo("logo.svg", "image/svg+xml", SVG);
    await expect(branding.alert).toHaveText("Only PNG, JPEG or WebP images of at most 40 KB are accepted.");
    await expect(page.getByText("No logo.")).toBeVisible();

    await branding.productName.fill(name);
    await branding.accent.fill(ACCENT);
    await branding.terms.fill("https://acme.example/terms");
    // The preview follows the form before anything is saved.
    await expect(branding.preview("light")).toContainText(name);
    await expect(branding.preview("light").getByText("Terms of use")).toBeVisible();
    await expect(branding.preview("light").getByText("Sign in", { exact: true }).last()).toHaveCSS("background-color", "rgb(122, 31, 162)");
    await branding.save();
    await branding.expectSaved();
    await branding.uploadLogo("logo.png", "image/png", PNG);
    await expect(page.getByText(/^Current logo: image\/png/)).toBeVisible();
    await expect(branding.preview("light").getByRole("img", { name })).toHaveJSProperty("complete", true);
    await expectNoSeriousViolations(page, "the branding page with a logo");

    // In Russian: a colour that is not #rrggbb is refused at its field, in Russian.
    await page.context().addCookies([{ name: "idp_lang", value: "ru", url: baseURL! }]);
    const ru = new BrandingPage(page, "ru");
    await ru.goto();
    await expect(ru.productName).toHaveValue(name);
    await ru.accent.fill("фиолетовый");
    await ru.save();
    await expect(page.getByText("Запишите цвет как # и шесть шестнадцатеричных цифр, например #0b5cad.")).toBeVisible();
    await ru.accent.fill(ACCENT);
    await ru.save();
    await ru.expectSaved();
    await expectNoSeriousViolationsInBothSchemes(page, "the branding page (ru)");
    await page.context().addCookies([{ name: "idp_lang", value: "en", url: baseURL! }]);

    // A visitor's sign-in page, in each language: the name in the title and above the form, the
    // logo loaded from the service itself, the accent on the button, the terms link, and nothing
    // the CSP had to refuse.
    for (const lang of ["en", "ru"] as const) {
      const w = VISITOR[lang];
      // The browser's language (Accept-Language) picks the page's.
      const visitor = await (await browser.newContext({ locale: lang === "ru" ? "ru-RU" : "en-US" })).newPage();
      const signIn = await openSignIn(visitor, lang);
      await expect(visitor).toHaveTitle(`${w.title} · ${name}`);
      const logo = visitor.getByRole("img", { name });
      await expect(logo).toHaveAttribute("src", /^\/idp\/branding\/logo\?v=[\w-]{16}$/);
      await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
      await expect(visitor.locator("header.brand")).toContainText(name);
      await expect(visitor.getByRole("button", { name: w.submit, exact: true })).toHaveCSS("background-color", "rgb(122, 31, 162)");
      await expect(visitor.getByRole("link", { name: w.terms })).toHaveAttribute("href", "https://acme.example/terms");
      await expect(visitor.getByRole("link", { name: w.privacy })).toHaveCount(0);
      expect(await signIn.violations()).toEqual([]);
      await expectNoSeriousViolationsInBothSchemes(visitor, `the branded sign-in page (${lang})`);
      await visitor.context().close();
    }
  } finally {
    await page.context().addCookies([{ name: "idp_lang", value: "en", url: baseURL! }]);
    await branding.goto();
    await branding.reset();
  }
  await expect(page.getByText("No logo.")).toBeVisible();
  await expect(branding.productName).toHaveValue("");

  // Back to the built-in look for everyone.
  const after = await (await browser.newContext()).newPage();
  await openSignIn(after);
  await expect(after).toHaveTitle("Sign in · Identity");
  await expect(after.getByRole("img")).toHaveCount(0);
  await after.context().close();
});
