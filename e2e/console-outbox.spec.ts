import { expect, test } from "@playwright/test";
import { OutboxPage } from "./pages/outbox.page.ts";
import { UsersPage } from "./pages/users.page.ts";
import { consoleClientToken, signInAsAdmin, uniqueTag } from "./support/admin.ts";

// The e2e server has no SMTP or SMS transport (scripts/e2e.mjs clears them), so every message stays
// pending in the outbox, where an administrator can read it: enough to finish a confirmation locally.
test("outbox shows a code for a local confirmation", async ({ page, request }) => {
  const clients = await signInAsAdmin(page);
  const token = await consoleClientToken(clients, request, ["idp_api_sys_users_chg", "idp_api_sys_users_reg"]);
  const headers = { authorization: `Bearer ${token}`, "accept-language": "en" };

  const email = `reg.${uniqueTag()}@example.org`;
  const registered = await request.put("reg/api/v3/users", {
    headers,
    data: { user: { attrs: { email: { value: email, verified: false }, family_name: "Registered" } } },
  });
  expect(registered.status()).toBe(200);
  const started = await registered.json();
  expect(started.context).not.toBe("");
  expect(started.subject).toBeUndefined();
  expect(started.instructions).toEqual([expect.objectContaining({ name: "eml-enter-code", email })]);

  const outbox = new OutboxPage(page);
  await outbox.goto();
  await expect(outbox.row(email)).toContainText("Pending");
  const text = await outbox.textOf(email);
  const code = /\b(\d{6})\b/.exec(text)?.[1];
  expect(code, `a six-digit code in: ${text}`).toBeDefined();

  const confirmed = await request.post(`reg/api/v3/users/${started.context}`, { headers, data: { email_code: code } });
  expect(confirmed.status()).toBe(200);
  const account = await confirmed.json();
  expect(account.subject).toEqual(expect.any(String));
  expect(account.instructions).toEqual([]);

  const users = new UsersPage(page);
  await users.goto();
  await users.searchFor(email);
  await expect(users.row(account.subject)).toContainText(email);
  await expect(users.row(account.subject)).toContainText("Registered");
  await expect(users.row(account.subject)).not.toContainText("not confirmed");
  await expect(users.row(account.subject)).toContainText("confirmed");
});
