import { expect, test } from "@playwright/test";
import { ApiDocsPage } from "./pages/api-docs.page.ts";
import { signInAsAdmin, uniqueClientId } from "./support/admin.ts";

// An account of e2e/fixtures/import.json; the test only reads it.
const SUBJECT = "e2e-qr-user";

test("the API reference renders from the service alone, fetches a system token and tries an operation with it", async ({ page, baseURL }) => {
  const clients = await signInAsAdmin(page);
  const clientId = uniqueClientId();
  await clients.create({ id: clientId, name: `E2E ${clientId}`, scopes: "idp_api_sys_users" });
  const secret = await clients.takeOneTimeSecret();

  const origin = new URL(baseURL!).origin;
  const elsewhere: string[] = [];
  const blocked: string[] = [];
  page.on("request", (r) => {
    if (!/^(data|blob):/.test(r.url()) && new URL(r.url()).origin !== origin) elsewhere.push(r.url());
  });
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) blocked.push(m.text());
  });

  const docs = new ApiDocsPage(page);
  await docs.goto();
  await expect(docs.operationLink("Issue tokens (client_credentials, authorization_code, refresh_token)", "POST")).toBeVisible();
  await expect(page.getByRole("button", { name: "Users (v3) Open Group" })).toBeVisible();

  expect(await docs.authorize(clientId, secret, "idp_api_sys_users")).toBe(200);
  await expect(docs.auth.getByRole("textbox", { name: "Access Token" })).toHaveValue(/^ey[\w-]+\.[\w-]+\.[\w-]+$/);

  await docs.openInClient("Users (v3)", "Read the attributes of an account", "GET");
  await docs.setPathParam("subjectId", SUBJECT);
  const answer = await docs.send("GET", `/api/v3/users/${SUBJECT}`);
  expect(answer.status).toBe(200);
  expect(answer.authorization).toMatch(/^Bearer ey/);
  await expect(docs.responseBody()).toContainText(`"sub": "${SUBJECT}"`);

  expect(elsewhere).toEqual([]);
  expect(blocked).toEqual([]);
});
