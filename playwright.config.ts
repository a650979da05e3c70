import { defineConfig } from "@playwright/test";

// Run through `npm run test:e2e` (scripts/e2e.mjs), which starts a server on a fresh data dir and
// passes its address and administrator password. Browsers cannot be downloaded on these machines, so
// Debian's Chromium is used; without the background-networking flags it keeps trying to reach the net.
const baseURL = process.env.E2E_BASE_URL;
if (!baseURL) throw new Error("E2E_BASE_URL: is required (run `npm run test:e2e`), e.g. http://127.0.0.1:3000/idp");

export default defineConfig({
  testDir: "e2e",
  retries: 0,
  workers: 1,
  reporter: "list",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  outputDir: "test-results",
  use: {
    // A trailing slash makes relative paths in page.goto() resolve under the context path.
    baseURL: baseURL.replace(/\/?$/, "/"),
    screenshot: "only-on-failure",
    locale: "en-US",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
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
