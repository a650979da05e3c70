import { describe, expect, it } from "vitest";
import { findChromium, NO_CHROMIUM } from "../../scripts/find-chromium.mjs";

describe("the Chromium the e2e tests run in", () => {
  const on = (...paths: string[]) => (p: string) => paths.includes(p);
  const playwrightChromium = "/root/.cache/ms-playwright/chromium-1/chrome-linux64/chrome";

  it("takes E2E_CHROMIUM when set, and only if it is there", () => {
    expect(findChromium({ env: { E2E_CHROMIUM: "/opt/chrome/chrome" }, exists: on("/opt/chrome/chrome", "/usr/bin/chromium") })).toBe("/opt/chrome/chrome");
    expect(findChromium({ env: { E2E_CHROMIUM: "/opt/missing" }, exists: on("/usr/bin/chromium") })).toBeNull();
  });

  it("prefers the system's Chromium, then Playwright's download", () => {
    expect(findChromium({ env: {}, exists: on("/usr/bin/chromium", playwrightChromium), playwrightChromium })).toBe("/usr/bin/chromium");
    expect(findChromium({ env: {}, exists: on(playwrightChromium), playwrightChromium })).toBe(playwrightChromium);
  });

  it("finds none on a machine with neither, and the message says what to install", () => {
    expect(findChromium({ env: {}, exists: on(), playwrightChromium })).toBeNull();
    expect(NO_CHROMIUM).toContain("apt-get install chromium");
    expect(NO_CHROMIUM).toContain("npx playwright install chromium");
  });
});
