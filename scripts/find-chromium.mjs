// Which Chromium the end-to-end tests drive: E2E_CHROMIUM when set, else a system Chromium (Debian's
// package), else the one `npx playwright install chromium` downloads; null when there is none.
import { existsSync } from "node:fs";

export const SYSTEM_CHROMIUMS = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable"];

export const NO_CHROMIUM =
  "e2e: no Chromium to run the tests in. Install one of: Debian's package (`apt-get install chromium`), " +
  "or Playwright's own build where it can be downloaded (`npx playwright install chromium`); " +
  "or set E2E_CHROMIUM to the path of a Chromium or Chrome binary.";

/** `playwrightChromium`: the path Playwright would download its Chromium to (it may not be there). */
export function findChromium({ env = process.env, exists = existsSync, playwrightChromium } = {}) {
  if (env.E2E_CHROMIUM) return exists(env.E2E_CHROMIUM) ? env.E2E_CHROMIUM : null;
  const found = SYSTEM_CHROMIUMS.find((p) => exists(p));
  if (found) return found;
  return playwrightChromium && exists(playwrightChromium) ? playwrightChromium : null;
}
