import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/**
 * Runs axe on the page as it stands (WCAG 2.1 A and AA rules and axe's best practices) and fails
 * on any serious or critical violation, naming the rule and the elements.
 */
export async function expectNoSeriousViolations(page: Page, what: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    serious.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
    `axe on ${what}`,
  ).toEqual([]);
}

/**
 * The same check in the light and the dark colour scheme, leaving the page light. After each switch
 * the colour transitions run out first: axe measuring a button halfway between its light and dark
 * colours (or a dialog still fading in) reports a contrast no reader ever sees.
 */
export async function expectNoSeriousViolationsInBothSchemes(page: Page, what: string): Promise<void> {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    // Endless animations (a spinner) are not waited for: they never finish.
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== "running" || a.effect?.getComputedTiming().endTime === Infinity));
    await expectNoSeriousViolations(page, `${what} (${colorScheme})`);
  }
  await page.emulateMedia({ colorScheme: "light" });
}
