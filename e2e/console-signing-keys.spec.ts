import { expect, test } from "@playwright/test";
import { signInAsAdmin } from "./support/admin.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";

// Signing keys: an administrator rotates the key from the console; the new key is published at once
// and waits its turn, while the key in force keeps signing (the suite's other tokens stay valid).

test("rotates the signing key: the new key is listed as published and waiting, the old one still signs", async ({ page, request }) => {
  await signInAsAdmin(page);
  await page.goto("console/signing-keys");
  await expect(page.getByRole("heading", { name: "Signing keys" })).toBeVisible();
  const table = page.getByRole("table", { name: "Signing keys" });
  const signingRows = table.getByRole("row").filter({ has: page.getByRole("cell", { name: "signing", exact: true }) });
  await expect(signingRows).toHaveCount(1);
  const before = (await (await request.get(".well-known/jwks.json")).json()) as { keys: { kid: string }[] };

  await page.getByRole("button", { name: "Rotate", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Rotate the signing key?" });
  await expect(dialog).toContainText("Tokens already issued stay valid.");
  await dialog.getByRole("button", { name: "Rotate", exact: true }).click();
  await expect(dialog).toBeHidden();
  const status = page.getByRole("status").filter({ hasText: "New key" });
  await expect(status).toBeVisible();
  const kid = /New key (\S+) signs from/.exec((await status.textContent()) ?? "")?.[1];
  expect(kid).toBeDefined();

  await expect(table.getByRole("row", { name: new RegExp(`${kid}.*published, signs soon`) })).toBeVisible();
  await expect(signingRows).toHaveCount(1);
  const after = (await (await request.get(".well-known/jwks.json")).json()) as { keys: { kid: string }[] };
  expect(after.keys.map((k) => k.kid)).toEqual([...before.keys.map((k) => k.kid), kid]);
  await expectNoSeriousViolations(page, "the signing keys page");
});
