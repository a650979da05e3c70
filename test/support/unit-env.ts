import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

// In-process tests run the services against a database they open themselves; the configuration
// they read must never point at a developer's real data dir.
process.env.IDP_SECRET_KEY ??= "unit-test-secret-key-0123456789abcdef";
process.env.IDP_DATA_DIR = mkdtempSync(path.join(tmpdir(), "idp-unit-"));
process.env.IDP_PUBLIC_URL = "http://idp.test";
process.env.IDP_LOG_LEVEL ??= "error";
delete process.env.DATABASE_URL;
delete process.env.IDP_IMPORT;
// Delivery tests bring their own loopback transports; a developer's real ones must not receive mail.
delete process.env.SMTP_URL;
delete process.env.MAIL_FROM;
delete process.env.SMS_WEBHOOK_URL;
delete process.env.SMS_WEBHOOK_TOKEN;
// The tests' external providers listen on loopback, which outbound requests refuse unless allowed.
process.env.IDP_OUTBOUND_ALLOW = "127.0.0.0/8,::1";
