import { expect, test } from "@playwright/test";
import { OutboxPage } from "./pages/outbox.page.ts";
import { UsersPage } from "./pages/users.page.ts";
import { consoleClientToken, signInAsAdmin, uniqueTag } from "./support/admin.ts";

// The e2e server has no SMS transport (scripts/e2e.mjs; e-mail goes to its SMTP sink), so a text
// message stays pending in the outbox, where an administrator can read it: enough to finish a
// confirmation locally.
test("outbox shows a code for a local confirmation", async ({ page, request }) => {
  const clients = await signInAsAdmin(page);
  const token = await consoleClientToken(clients, request, ["idp_api_sys_users_chg", "idp_api_sys_users_reg"]);
  const headers = { authorization: `Bearer ${token}`, "accept-language": "en" };

  // 7 and ten digits, unique per run: the letters of the tag as digits.
  const phone = `79${[...uniqueTag()].map((c) => c.charCodeAt(0) % 10).join("")}`.padEnd(11, "0");
  const registered = await request.put("reg/api/v3/users", {
    headers,
    data: { user: { attrs: { phone_number: { value: phone, verified: false }, family_name: "Registered" } } },
  });
  expect(registered.status()).toBe(200);
  const started = await registered.json();
  expect(started.context).not.toBe("");
  expect(started.subject).toBeUndefined();
  expect(started.instructions).toEqual([expect.objectContaining({ name: "mbl-enter-code", mobile: phone })]);

  const outbox = new OutboxPage(page);
  await outbox.goto();
  await expect(outbox.row(phone)).toContainText("Pending");
  const text = await outbox.textOf(phone);
  const code = /\b(\d{6})\b/.exec(text)?.[1];
  expect(code, `a six-digit code in: ${text}`).toBeDefined();

  const confirmed = await request.post(`reg/api/v3/users/${started.context}`, { headers, data: { sms_code: code } });
  expect(confirmed.status()).toBe(200);
  const account = await confirmed.json();
  expect(account.subject).toEqual(expect.any(String));
  expect(account.instructions).toEqual([]);

  const users = new UsersPage(page);
  await users.goto();
  await users.searchFor(phone);
  await expect(users.row(account.subject)).toContainText(phone);
  await expect(users.row(account.subject)).toContainText("Registered");
  await expect(users.row(account.subject)).not.toContainText("not confirmed");
  await expect(users.row(account.subject)).toContainText("confirmed");
});
