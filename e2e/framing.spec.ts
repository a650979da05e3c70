import { expect, test } from "@playwright/test";
import { signInAsAdmin } from "./support/admin.ts";

// Clickjacking: a hostile site frames the console (with the administrator signed in) and the portal
// under invisible buttons. Both must refuse to render inside another site's frame.
const HOSTILE = "http://hostile.example.test/";

test("a hostile page cannot frame the console or the portal; the pages work unframed under their policy", async ({ page, context, baseURL }) => {
  const violations: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" && /Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  await signInAsAdmin(page);
  expect(violations, "the console itself runs under its policy").toEqual([]);

  for (const target of ["console/clients", "account"]) {
    const url = new URL(target, baseURL).toString();
    // The hostile origin is served by the test itself: no network is needed.
    await context.route(HOSTILE, (route) =>
      route.fulfill({ contentType: "text/html", body: `<!doctype html><title>Win a prize</title><iframe id="victim" src="${url}" width="800" height="600"></iframe>` }),
    );
    const hostile = await context.newPage();
    await hostile.goto(HOSTILE);
    const frame = hostile.frames().find((f) => f !== hostile.mainFrame())!;
    // Chromium replaces a refused frame's document with its own error page; a framed console would
    // have stayed at its own address (and gone on to its pages).
    await expect.poll(() => frame.url()).toMatch(/^chrome-error:/);
    await hostile.close();
    await context.unroute(HOSTILE);
  }
});
