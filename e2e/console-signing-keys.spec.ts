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

  await page.getByRole("button", { name: "Rotate (Signing keys)", exact: true }).click();
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

test("rotates the SAML signing key on its own: the new certificate is published in the SAML metadata, the JWKS stays", async ({ page, request }) => {
  await signInAsAdmin(page);
  await page.goto("console/signing-keys");
  const jwks = await (await request.get(".well-known/jwks.json")).text();
  const certificates = async () => ((await (await request.get("saml/metadata")).text()).match(/<md:KeyDescriptor use="signing">/g) ?? []).length;
  const before = await certificates();
  const section = page.getByRole("region", { name: "SAML signing key" });
  await expect(section.getByText("Applications pin its certificate")).toBeVisible();

  await section.getByRole("button", { name: "Rotate (SAML signing key)", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Rotate the SAML signing key?" });
  await expect(dialog).toContainText("Applications that do not have it by then refuse the responses.");
  await dialog.getByRole("button", { name: "Rotate", exact: true }).click();
  await expect(dialog).toBeHidden();
  const status = section.getByRole("status").filter({ hasText: "New key" });
  const kid = /New key (\S+) signs from/.exec((await status.textContent()) ?? "")?.[1];
  expect(kid).toBeDefined();
  await expect(section.getByRole("table", { name: "SAML signing key" }).getByRole("row", { name: new RegExp(`${kid}.*published, signs soon`) })).toBeVisible();
  // The metadata is memoized per key set: the next read lists one certificate more.
  await expect.poll(certificates).toBe(before + 1);
  expect(await (await request.get(".well-known/jwks.json")).text()).toBe(jwks);
});
