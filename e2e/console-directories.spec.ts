import { createServer } from "node:net";
import { expect, test, type Locator } from "@playwright/test";
import { BASE_DN, person, READER, startSlapd, type TSlapd } from "../test/support/slapd.ts";
import { signInAsAdmin, uniqueTag, useConsoleLanguage } from "./support/admin.ts";
import { expectNoSeriousViolationsInBothSchemes } from "./support/axe.ts";

// The directories page, reached from the Security menu: first as an installation without a
// directory sees it, in both languages and both schemes; then a directory added, tested, edited and
// deleted through its dialogs, against a real slapd this spec starts on loopback (as the directory
// tests do; the server under test reaches it there).

let slapd: TSlapd;
test.beforeAll(async () => {
  slapd = await startSlapd(person({ uid: "anna", password: "anna-password", givenName: "Anna", sn: "Petrova", mail: "anna@example.org" }));
});
test.afterAll(async () => slapd?.close());

/** A loopback port nothing listens on: what a directory that is down looks like. */
const closedPort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

const portOf = (url: string) => new URL(url).port;

async function testConnection(dialog: Locator): Promise<Locator> {
  await dialog.getByRole("button", { name: "Test connection" }).click();
  const result = dialog.getByRole("region", { name: "Connection test" });
  await expect(result).toBeVisible();
  return result;
}

test("the directories page is in the Security menu and says where a directory is configured", async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto("console");
  await page.getByRole("navigation").getByRole("button", { name: "Security" }).click();
  await page.getByRole("navigation").getByRole("link", { name: "Directories" }).click();
  await expect(page.getByRole("heading", { name: "Directories", level: 1 })).toBeVisible();
  await expect(page.getByText("No directory is configured. Add one here, or in the import document's directories section.")).toBeVisible();
  await expectNoSeriousViolationsInBothSchemes(page, "the directories page");
  await useConsoleLanguage(page, "ru");
  await page.goto("console/directories");
  await expect(page.getByRole("heading", { name: "Каталоги", level: 1 })).toBeVisible();
  await page.getByRole("button", { name: "Добавить каталог" }).click();
  await expect(page.getByRole("dialog", { name: "Добавление каталога" }).getByLabel("Пароль служебной учётной записи")).toBeVisible();
  await expectNoSeriousViolationsInBothSchemes(page, "the add-directory dialog (ru)");
  await page.getByRole("dialog").getByRole("button", { name: "Отмена" }).click();
  await expectNoSeriousViolationsInBothSchemes(page, "the directories page (ru)");
});

test("an administrator adds a directory, tests its connection, edits it without retyping the password, and deletes it", async ({ page }) => {
  test.slow();
  const tag = uniqueTag();
  const name = `Corporate ${tag}`;
  await signInAsAdmin(page);
  await page.goto("console/directories");
  await page.getByRole("button", { name: "Add directory" }).click();
  const add = page.getByRole("dialog", { name: "Add a directory" });
  await add.getByLabel("ID", { exact: true }).fill(`corp-${tag}`);
  await add.getByLabel("Name", { exact: true }).fill(name);
  await add.getByLabel("Address", { exact: true }).fill(slapd.ldapsUrl);
  await add.getByLabel("CA certificate (PEM)").fill(slapd.caPem);
  await add.getByLabel("Service account (bind DN)").fill(READER.dn);
  await add.getByLabel("Service account's password").fill("not-the-password");
  await add.getByLabel("Base DN").fill(`ou=people,${BASE_DN}`);
  await add.getByRole("button", { name: "Add attribute" }).click();
  await add.getByRole("group", { name: "Attribute 1" }).getByLabel("Directory attribute").fill("givenName");
  await add.getByRole("group", { name: "Attribute 1" }).getByLabel("Catalog attribute").fill("given_name");

  // A wrong password: reached, the bind refused, and the password not repeated.
  let result = await testConnection(add);
  await expect(result.getByRole("listitem")).toHaveText([`Reached 127.0.0.1:${portOf(slapd.ldapsUrl)} over TLS (ldaps://).`, /^The service account could not sign in: wrong bind DN or password\./]);
  await expect(result).not.toContainText("not-the-password");

  await add.getByLabel("Service account's password").fill(READER.password);
  result = await testConnection(add);
  await expect(result.getByRole("listitem")).toHaveText([/^Reached 127\.0\.0\.1:\d+ over TLS/, "Signed in as the service account.", "Entries found with the user filter under the base DN: 1.", "A sample entry, as it would be here:"]);
  await expect(result).toContainText("uid=anna,ou=people");
  await expect(result).toContainText("given_name: Anna");
  await expectNoSeriousViolationsInBothSchemes(page, "the add-directory dialog with a connection test");
  await add.getByRole("button", { name: "Add", exact: true }).click();
  await expect(page.getByText(`Directory ${name} added.`)).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText(slapd.ldapsUrl);
  await expect(row).toContainText("on demand (at sign-in)");

  // Edit: the password is not shown, and left empty it stays what it was.
  await row.getByRole("button", { name: `Edit ${name}` }).click();
  const edit = page.getByRole("dialog", { name: `Edit ${name}` });
  await expect(edit.getByLabel("ID", { exact: true })).toHaveValue(`corp-${tag}`);
  await expect(edit.getByLabel("Service account's password")).toHaveValue("");
  await expect(edit.getByText("A CA certificate is stored (not shown).")).toBeVisible();
  await edit.getByLabel("Name", { exact: true }).fill(`${name} renamed`);
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(`Directory ${name} renamed saved.`)).toBeVisible();
  await page.getByRole("row").filter({ hasText: `${name} renamed` }).getByRole("button", { name: /^Edit / }).click();
  const again = page.getByRole("dialog", { name: `Edit ${name} renamed` });
  result = await testConnection(again);
  await expect(result.getByRole("listitem").nth(1)).toHaveText("Signed in as the service account.");

  // Another address needs the password again; a directory that is down is said to be so.
  const down = await closedPort();
  await again.getByLabel("Address", { exact: true }).fill(`ldaps://127.0.0.1:${down}`);
  await again.getByRole("button", { name: "Test connection" }).click();
  await expect(again.getByText("type the password again: the stored one is sent only to the server, and with the trust, it was given for")).toBeVisible();
  await again.getByLabel("Service account's password").fill(READER.password);
  result = await testConnection(again);
  await expect(result.getByRole("listitem")).toHaveText([/^Could not connect to 127\.0\.0\.1:\d+: the connection was refused/]);
  await again.getByRole("button", { name: "Cancel" }).click();

  await page.getByRole("row").filter({ hasText: `${name} renamed` }).getByRole("button", { name: /^Delete / }).click();
  const confirm = page.getByRole("dialog", { name: `Delete ${name} renamed?` });
  await expect(confirm).toContainText("the accounts made from its entries stay, without a password");
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText(`Directory ${name} renamed deleted.`)).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: name })).toHaveCount(0);
});
