import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { signInAsAdmin, uniqueTag } from "./support/admin.ts";
import { expectNoSeriousViolationsInBothSchemes } from "./support/axe.ts";
import { mailTo } from "./support/mail.ts";

// Delivery set in the console: the e2e server's e-mail is set by environment variables (its SMTP
// sink), which the page says win; SMS has no transport, so an administrator sets a webhook here,
// sends a test through it, and removes it again (the other specs expect SMS to stay in the outbox).
// Then message texts: rewritten in Russian, previewed, used for a real e-mail, and reset.

type TCall = { headers: IncomingHttpHeaders; body: { to?: string; text?: string } };

/** An SMS gateway on loopback that accepts every message. */
async function startWebhook(): Promise<{ url: string; calls: TCall[]; close(): Promise<void> }> {
  const calls: TCall[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      calls.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/sms`, calls, close: () => new Promise((r) => server.close(() => r())) };
}

test("an administrator sets an SMS webhook in the console, sends a test through it and removes it", async ({ page }) => {
  const hook = await startWebhook();
  try {
    await signInAsAdmin(page);
    await page.goto("console/delivery");
    await expect(page.getByRole("heading", { name: "Delivery", level: 1 })).toBeVisible();
    const email = page.getByRole("region", { name: /E-mail \(SMTP\)/ });
    await expect(email).toContainText("Set by environment variables, which win over the settings below.");
    const sms = page.getByRole("region", { name: /SMS \(webhook\)/ });
    await expect(sms).toContainText("not configured");

    // Every field is checked in one pass, and the cursor goes to the first one refused.
    const form = page.getByRole("form", { name: "SMS webhook set in the console" });
    await form.getByLabel("Webhook").fill("ftp://sms.example.com/send");
    await form.getByLabel("Bearer token").fill("short");
    await form.getByRole("button", { name: "Save" }).click();
    await expect(form.getByText("must be an http(s) URL such as https://sms.example.com/send")).toBeVisible();
    await expect(form.getByText("must be at least 16 characters")).toBeVisible();
    await expect(form.getByLabel("Webhook")).toBeFocused();

    const token = `hook-${uniqueTag()}-0123456789`;
    await form.getByLabel("Webhook").fill(hook.url);
    await form.getByLabel("Bearer token").fill(token);
    await form.getByRole("button", { name: "Save" }).click();
    await expect(form.getByRole("status")).toHaveText("Saved. New messages go this way now.");
    await expect(sms).toContainText("Set in the console below.");
    await expect(sms).toContainText("configured");
    // The token is never shown again, only that one is saved.
    await expect(form.getByLabel("Bearer token")).toHaveValue("");
    await expect(sms).toContainText("A token is saved; leave empty to keep it (it is dropped when the webhook moves to another site).");
    await expectNoSeriousViolationsInBothSchemes(page, "the delivery page with console settings");

    const phone = `+7999${Date.now() % 10_000_000}`.padEnd(12, "0");
    const tester = page.getByRole("form", { name: "Send a test message" });
    await tester.getByLabel("Channel").selectOption("sms");
    await tester.getByLabel("Phone number").fill(phone);
    await tester.getByRole("button", { name: "Send test message" }).click();
    await expect(tester.getByRole("status")).toContainText("Sent.");
    const call = hook.calls.find((c) => c.body.to === phone);
    expect(call?.headers.authorization).toBe(`Bearer ${token}`);

    await form.getByRole("button", { name: "Remove these settings" }).click();
    await expect(sms).toContainText("not configured");
  } finally {
    await hook.close();
  }
});

test("message texts are rewritten in Russian, previewed, used for a real message and reset", async ({ page }) => {
  await signInAsAdmin(page);
  await page.context().addCookies([{ name: "idp_lang", value: "ru", domain: new URL(process.env.E2E_BASE_URL!).hostname, path: "/" }]);
  await page.goto("console/templates");
  await expect(page.getByRole("heading", { name: "Шаблоны сообщений", level: 1 })).toBeVisible();
  const editor = page.getByRole("form", { name: "Текст сообщения" });

  // A code message without its code is refused, and the cursor goes to the text.
  await page.getByLabel("Язык", { exact: true }).selectOption("en");
  await expect(editor.getByLabel("Тема")).toHaveValue("Your e-mail confirmation code");
  await editor.getByLabel("Текст", { exact: true }).fill("Hello, there is no code here.");
  await editor.getByRole("button", { name: "Сохранить" }).click();
  await expect(editor.getByText(/must contain \{code\}/)).toBeVisible();
  await expect(editor.getByLabel("Текст", { exact: true })).toBeFocused();

  // The test message, rewritten; the preview follows the typing.
  await page.getByLabel("Сообщение", { exact: true }).selectOption({ label: "Проверочное сообщение · Почта" });
  const tag = uniqueTag();
  await editor.getByLabel("Тема").fill(`Acme ${tag}`);
  await editor.getByLabel("Текст", { exact: true }).fill(`Hello from Acme ${tag}: delivery works.`);
  const preview = page.getByRole("region", { name: "Предпросмотр с вымышленными значениями" });
  await expect(preview).toContainText(`Acme ${tag}`);
  await expect(preview).toContainText(`Hello from Acme ${tag}: delivery works.`);
  await editor.getByRole("button", { name: "Сохранить" }).click();
  await expect(editor.getByRole("status")).toHaveText("Сохранено. Новые сообщения пишутся этим текстом.");
  await expect(editor).toContainText("Свой текст, сохранён");
  await expectNoSeriousViolationsInBothSchemes(page, "the templates page (ru)");

  // A real message written from now on uses it.
  const to = `templates-${tag}@example.test`;
  await page.goto("console/delivery");
  const tester = page.getByRole("form", { name: "Отправить проверочное сообщение" });
  await tester.getByLabel("Адрес электронной почты").fill(to);
  await tester.getByLabel("Язык").selectOption("en");
  await tester.getByRole("button", { name: "Отправить проверку" }).click();
  await expect(tester.getByRole("status")).toContainText("Отправлено.");
  await expect.poll(() => mailTo(to).length).toBe(1);
  expect(mailTo(to)[0]).toMatchObject({ subject: `Acme ${tag}`, text: expect.stringContaining(`Hello from Acme ${tag}: delivery works.`) });

  await page.goto("console/templates");
  await page.getByLabel("Язык", { exact: true }).selectOption("en");
  await page.getByLabel("Сообщение", { exact: true }).selectOption({ label: "Проверочное сообщение · Почта · свой текст" });
  await editor.getByRole("button", { name: "Вернуть встроенный текст" }).click();
  await expect(editor.getByRole("status")).toHaveText("Снова используется встроенный текст.");
  await expect(editor.getByLabel("Тема")).toHaveValue("Delivery test");
});
