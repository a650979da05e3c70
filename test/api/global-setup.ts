import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { createPgDatabase, freePort, startServer } from "../../scripts/server-lib.mjs";
import { FEDERATION_CLIENT, startFederationProvider } from "../support/external-provider.ts";
import { FEDERATION_FIXTURE, IMPORT_FIXTURE } from "../support/fixtures.ts";
import { startInbox } from "../support/inbox.ts";
import { startSmtpPeer, startWebhookPeer } from "../support/messaging-peers.ts";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    dbKind: "embedded" | "postgres";
    databaseUrl: string;
    dataDir: string;
    serverLog: string;
    adminPassword: string;
    inboxUrl: string;
    /** IDP_SECRET_KEY, or the key the embedded server generated in its data dir. */
    secretKey: string;
    /** The issuer of the external provider oidc:ext (test/support/external-provider.ts, startFederationProvider). */
    fedIssuer: string;
  }
}

/**
 * Starts the production build once for the API suite, on the embedded database or, with
 * IDP_TEST_DB=postgres, on a fresh PostgreSQL database created from TEST_DATABASE_URL.
 */
export default async function setup(project: TestProject) {
  const dbKind = process.env.IDP_TEST_DB === "postgres" ? "postgres" : "embedded";
  const dataDir = mkdtempSync(path.join(tmpdir(), "idp-api-"));
  const serverLog = path.join(dataDir, "server.log");
  const adminPassword = "admin-password-for-tests";
  // Real delivery peers on loopback: the server sends e-mail over SMTP and SMS to a webhook, and
  // tests read the codes from what arrived.
  const smtp = await startSmtpPeer({ user: "idp", pass: "smtp-test-password" });
  const webhook = await startWebhookPeer();
  const inbox = await startInbox(smtp, webhook);
  // The external provider oidc:ext needs the service's callback before the service starts, and the
  // import names its issuer: the server gets a copy of the fixture with that provider added.
  const port = await freePort();
  const fed = await startFederationProvider({ redirectUris: [`http://127.0.0.1:${port}/idp/fa/callback`] });
  const importFile = path.join(dataDir, "import.json");
  writeFileSync(importFile, JSON.stringify(withFederationProvider(JSON.parse(readFileSync(IMPORT_FIXTURE, "utf8")), fed.issuer)));
  const env: Record<string, string> = {
    SMTP_URL: smtp.url,
    MAIL_FROM: "Identity Service <idp@example.test>",
    SMS_WEBHOOK_URL: webhook.url,
    // Short enough that a test can wait it out, long enough to be seen refusing.
    IDP_CODE_RESEND_COOLDOWN: "2",
    // Failed client authentications: a window short enough for test/api/client-auth-limits.test.ts to wait out.
    IDP_CLIENT_AUTH_WINDOW: "3",
    IDP_DATA_DIR: dataDir,
    IDP_IMPORT: importFile,
    IDP_ADMIN_PASSWORD: adminPassword,
    IDP_ACCESS_TOKEN_TTL: "900",
    IDP_LOG_LEVEL: "info",
    // The sign-up page is on for the suite; test/api/self-signup.test.ts starts a server with it off.
    IDP_SELF_SIGNUP: "on",
    IDP_METRICS_TOKEN: "metrics-scrape-token-for-tests",
  };
  let pgDb: Awaited<ReturnType<typeof createPgDatabase>> | undefined;
  if (dbKind === "postgres") {
    if (!process.env.TEST_DATABASE_URL) throw new Error("IDP_TEST_DB=postgres needs TEST_DATABASE_URL");
    pgDb = await createPgDatabase(process.env.TEST_DATABASE_URL);
    env.DATABASE_URL = pgDb.url;
    env.IDP_SECRET_KEY = "api-test-secret-key-0123456789abcdef";
  }
  const server = await startServer({ env, logFile: serverLog, port });

  project.provide("baseUrl", server.baseUrl);
  project.provide("dbKind", dbKind);
  project.provide("databaseUrl", pgDb?.url ?? "");
  project.provide("dataDir", dataDir);
  project.provide("serverLog", serverLog);
  project.provide("adminPassword", adminPassword);
  project.provide("inboxUrl", inbox.url);
  project.provide("fedIssuer", fed.issuer);
  project.provide("secretKey", env.IDP_SECRET_KEY ?? readFileSync(path.join(dataDir, "secret.key"), "utf8").trim());

  return async () => {
    await server.stop();
    await Promise.all([inbox.close(), smtp.close(), webhook.close(), fed.close()]);
    await pgDb?.drop();
    if (!process.env.IDP_KEEP_TEST_DATA) rmSync(dataDir, { recursive: true, force: true });
  };
}

/**
 * The fixture with the clients of import-federation.json, and the federation provider as oidc:ext,
 * as oauth2:ext-plain and again as oidc:ext-stale, whose every stored token counts as stale (minTokenLifeS above the
 * provider's token life): test/api/federation-flow.test.ts.
 */
function withFederationProvider(doc: { clients: unknown[]; providers?: unknown[] }, issuer: string) {
  const extra = JSON.parse(readFileSync(FEDERATION_FIXTURE, "utf8")) as { clients: unknown[] };
  const ext = {
    fpType: "oidc", fpName: "ext", clientId: FEDERATION_CLIENT.id, clientSecret: FEDERATION_CLIENT.secret, discoveryUrl: issuer,
    scopes: ["openid", "profile", "email"], rememberTokens: true, offeredAtSignIn: true, allowRegistration: true,
  };
  const stale = { ...ext, fpName: "ext-stale", minTokenLifeS: 86_400, offeredAtSignIn: false };
  // The same provider as plain OAuth 2.0: explicit endpoints, the account read from userinfo, no ID token checked.
  const plain = {
    fpType: "oauth2", fpName: "ext-plain", clientId: FEDERATION_CLIENT.id, clientSecret: FEDERATION_CLIENT.secret,
    authorizationEndpoint: `${issuer}/auth`, tokenEndpoint: `${issuer}/token`, userinfoEndpoint: `${issuer}/me`,
    scopes: ["openid", "profile"], rememberTokens: true,
  };
  return { ...doc, clients: [...doc.clients, ...extra.clients], providers: [...(doc.providers ?? []), ext, stale, plain] };
}
