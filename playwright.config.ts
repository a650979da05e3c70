import { defineConfig } from "@playwright/test";

// Run through `npm run test:e2e` (scripts/e2e.mjs), which starts a server on a fresh data dir and
// passes its address, its administrator password and the Chromium it found (scripts/find-chromium.mjs:
// Debian's package, or Playwright's own download). Without the background-networking flags Chromium
// keeps trying to reach the net.
const baseURL = process.env.E2E_BASE_URL;
if (!baseURL) throw new Error("E2E_BASE_URL: is required (run `npm run test:e2e`), e.g. http://127.0.0.1:3000/idp");

export default defineConfig({
  testDir: "e2e",
  // One retry on CI only: a test that passes on its second try is still reported as flaky by name,
  // and on this shared 2-core machine one slow moment should not sink a run that is otherwise green.
  retries: process.env.CI ? 1 : 0,
  workers: 1,
  // The JSON report lets scripts/e2e.mjs name the failed tests after the server's log, at the very end.
  reporter: [["list"], ["json", { outputFile: "test-results/report.json" }]],
  timeout: 60_000,
  expect: { timeout: 10_000 },
  outputDir: "test-results",
  use: {
    // A trailing slash makes relative paths in page.goto() resolve under the context path.
    baseURL: baseURL.replace(/\/?$/, "/"),
    screenshot: "only-on-failure",
    locale: "en-US",
    launchOptions: {
      executablePath: process.env.E2E_CHROMIUM,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [{ name: "chromium", use: { browserName: "chromium" } }],
});
