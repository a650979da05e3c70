import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "./config.ts";

describe("parseConfig", () => {
  it("applies the documented defaults", () => {
    const c = parseConfig({});
    expect(c).toMatchObject({
      port: 3000,
      publicUrl: "http://localhost:3000",
      contextPath: "/idp",
      issuer: "http://localhost:3000/idp",
      accessTokenTtl: 3600,
      dataDir: path.resolve("./data"),
      database: { kind: "embedded", dir: path.resolve("./data/pglite") },
    });
  });

  it("limits failed client authentications by default and checks the limits given", () => {
    expect(parseConfig({}).clientAuthLimits).toEqual({ perClient: 10, perIp: 30, windowS: 60 });
    expect(parseConfig({ IDP_CLIENT_AUTH_FAILURES: "5", IDP_CLIENT_AUTH_WINDOW: "3" }).clientAuthLimits).toEqual({ perClient: 5, perIp: 30, windowS: 3 });
    expect(() => parseConfig({ IDP_CLIENT_AUTH_WINDOW: "0" })).toThrow(new ConfigError('IDP_CLIENT_AUTH_WINDOW: must be at least 1 (got "0")'));
  });

  it("asks for a new sign-in before sensitive portal changes after 5 minutes unless IDP_REAUTH_MAX_AGE says otherwise", () => {
    expect(parseConfig({}).reauthMaxAge).toBe(300);
    expect(parseConfig({ IDP_REAUTH_MAX_AGE: "30" }).reauthMaxAge).toBe(30);
    expect(() => parseConfig({ IDP_REAUTH_MAX_AGE: "0" })).toThrow(new ConfigError('IDP_REAUTH_MAX_AGE: must be at least 1 (got "0")'));
    expect(() => parseConfig({ IDP_REAUTH_MAX_AGE: "5m" })).toThrow("IDP_REAUTH_MAX_AGE: must be a whole number between 1 and 86400");
  });

  it("limits user properties and leaves the inactivity lock off by default, and checks the values given", () => {
    expect(parseConfig({}).account).toEqual({ props: { maxCount: 100, maxName: 128, maxValue: 1024 }, inactivity: { lockAfterS: 0, sweepIntervalS: 3600 } });
    const c = parseConfig({ IDP_PROPS_MAX_COUNT: "3", IDP_INACTIVITY_LOCK_DAYS: "90", IDP_INACTIVITY_SWEEP_INTERVAL: "600" });
    expect(c.account).toEqual({ props: { maxCount: 3, maxName: 128, maxValue: 1024 }, inactivity: { lockAfterS: 90 * 86_400, sweepIntervalS: 600 } });
    expect(() => parseConfig({ IDP_PROPS_MAX_VALUE: "0" })).toThrow(new ConfigError('IDP_PROPS_MAX_VALUE: must be at least 1 (got "0")'));
    expect(() => parseConfig({ IDP_INACTIVITY_LOCK_DAYS: "ninety" })).toThrow("IDP_INACTIVITY_LOCK_DAYS: must be a whole number between 0 and 36500");
  });

  it("takes an administrator's password of 15 characters or more, never echoing a refused one", () => {
    expect(() => parseConfig({ IDP_ADMIN_PASSWORD: "fourteen chars" })).toThrow(/^IDP_ADMIN_PASSWORD: must be at least 15 characters$/);
    expect(parseConfig({ IDP_ADMIN_PASSWORD: "fifteen chars!!" }).adminPassword).toBe("fifteen chars!!");
  });

  it("derives the issuer from the public URL and context path", () => {
    const c = parseConfig({ IDP_PUBLIC_URL: "https://id.example.com/", IDP_CONTEXT_PATH: "/auth/v2/" });
    expect(c.issuer).toBe("https://id.example.com/auth/v2");
    expect(parseConfig({ IDP_CONTEXT_PATH: "/" }).issuer).toBe("http://localhost:3000");
  });

  it("reaches itself over loopback on its own port unless IDP_INTERNAL_URL says otherwise", () => {
    const behindProxy = parseConfig({ PORT: "8080", IDP_PUBLIC_URL: "https://id.example.com" });
    expect(behindProxy.issuer).toBe("https://id.example.com/idp");
    expect(behindProxy.internalUrl).toBe("http://127.0.0.1:8080/idp");
    expect(parseConfig({ IDP_INTERNAL_URL: "http://10.0.0.5:3000/", IDP_CONTEXT_PATH: "/" }).internalUrl).toBe("http://10.0.0.5:3000");
  });

  it("defaults to https:// URLs when the server terminates TLS itself (IDP_TLS_CERT)", () => {
    const c = parseConfig({ IDP_TLS_CERT: "/etc/idp/server.pem", IDP_TLS_KEY: "/etc/idp/server.key" });
    expect(c.issuer).toBe("https://localhost:3000/idp");
    expect(c.internalUrl).toBe("https://127.0.0.1:3000/idp");
  });

  it("uses PostgreSQL when DATABASE_URL is set, and then requires IDP_SECRET_KEY", () => {
    expect(() => parseConfig({ DATABASE_URL: "postgresql://u@h/db" })).toThrow("IDP_SECRET_KEY: is required when DATABASE_URL is set");
    const c = parseConfig({ DATABASE_URL: "postgresql://u@h/db", IDP_SECRET_KEY: "x".repeat(32) });
    expect(c.database).toEqual({ kind: "postgres", url: "postgresql://u@h/db", poolMax: 10 });
    const small = parseConfig({ DATABASE_URL: "postgresql://u@h/db", IDP_SECRET_KEY: "x".repeat(32), IDP_DB_POOL_MAX: "3" });
    expect(small.database).toEqual({ kind: "postgres", url: "postgresql://u@h/db", poolMax: 3 });
    expect(() => parseConfig({ DATABASE_URL: "postgresql://u@h/db", IDP_SECRET_KEY: "x".repeat(32), IDP_DB_POOL_MAX: "0" })).toThrow(/^IDP_DB_POOL_MAX: must be at least 1/);
  });

  it.each([
    [{ PORT: "http" }, /^PORT: must be a whole number between 1 and 65535 \(got "http"\)$/],
    [{ PORT: "70000" }, /^PORT: must be at most 65535/],
    [{ IDP_ACCESS_TOKEN_TTL: "10" }, /^IDP_ACCESS_TOKEN_TTL: must be at least 60/],
    [{ IDP_PUBLIC_URL: "ftp://x" }, /^IDP_PUBLIC_URL: must be an http\(s\) URL/],
    [{ IDP_INTERNAL_URL: "127.0.0.1:3000" }, /^IDP_INTERNAL_URL: must be an http\(s\) URL/],
    [{ IDP_CONTEXT_PATH: "idp" }, /^IDP_CONTEXT_PATH: must start with "\/"/],
    [{ IDP_CONTEXT_PATH: "/a b" }, /^IDP_CONTEXT_PATH: segments may use only/],
    [{ DATABASE_URL: "mysql://x" }, /^DATABASE_URL: must be a postgresql:\/\/ connection URL/],
    [{ IDP_SECRET_KEY: "short" }, /^IDP_SECRET_KEY: must be at least 32 characters/],
    [{ IDP_LOG_LEVEL: "loud" }, /^IDP_LOG_LEVEL: /],
  ])("refuses %o with one line naming the variable", (env, message) => {
    let error: unknown;
    try {
      parseConfig(env);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain("\n");
  });

  it("configures e-mail and SMS delivery only when their variables are set", () => {
    expect(parseConfig({}).messaging).toEqual({ smtp: undefined, smsWebhook: undefined });
    const c = parseConfig({
      SMTP_URL: "smtps://mailer:pw@mail.example.com:465",
      MAIL_FROM: "Identity <no-reply@example.com>",
      SMS_WEBHOOK_URL: "https://sms.example.com/send",
      SMS_WEBHOOK_TOKEN: "t".repeat(16),
    });
    expect(c.messaging).toEqual({
      smtp: { url: "smtps://mailer:pw@mail.example.com:465", from: "Identity <no-reply@example.com>" },
      smsWebhook: { url: "https://sms.example.com/send", token: "t".repeat(16) },
    });
    expect(() => parseConfig({ SMTP_URL: "smtp://mail.example.com" })).toThrow("MAIL_FROM: is required when SMTP_URL is set");
    expect(() => parseConfig({ SMS_WEBHOOK_TOKEN: "t".repeat(16) })).toThrow("SMS_WEBHOOK_TOKEN: is set but SMS_WEBHOOK_URL is not");
    expect(() => parseConfig({ MAIL_FROM: "nobody" })).toThrow(/^MAIL_FROM: must be an address/);
  });

  it.each([
    ["SMTP_URL", "http://user:hunter2-secret@mail"],
    ["SMS_WEBHOOK_URL", "ftp://hook?key=hunter2-secret"],
    ["SMS_WEBHOOK_TOKEN", "hunter2-secret"],
  ])("refuses a bad %s without echoing it", (name, value) => {
    expect(() => parseConfig({ [name]: value })).toThrow(new RegExp(`^${name}: `));
    expect(() => parseConfig({ [name]: value })).not.toThrow(/hunter2/);
    // …while a variable that is no secret is still shown, since seeing it is how one spots the typo.
    expect(() => parseConfig({ IDP_ACCESS_TOKEN_TTL: "soon" })).toThrow('(got "soon")');
  });

  it("does not echo a secret value in its error", () => {
    expect(() => parseConfig({ IDP_SECRET_KEY: "short-secret" })).toThrow(/IDP_SECRET_KEY/);
    try {
      parseConfig({ IDP_SECRET_KEY: "short-secret" });
    } catch (e) {
      expect((e as Error).message).not.toContain("short-secret");
    }
  });

  it("treats empty variables as unset", () => {
    expect(parseConfig({ PORT: "", DATABASE_URL: "" }).port).toBe(3000);
  });

  it("turns self sign-up on only when asked, and names a wrong value", () => {
    expect(parseConfig({}).selfSignUp).toBe(false);
    expect(parseConfig({ IDP_SELF_SIGNUP: "on" }).selfSignUp).toBe(true);
    expect(() => parseConfig({ IDP_SELF_SIGNUP: "yes" })).toThrow('IDP_SELF_SIGNUP: must be on or off (got "yes")');
  });

  it("offers password recovery by both contacts unless told otherwise", () => {
    expect(parseConfig({}).recovery).toEqual({ email: true, phone: true });
    expect(parseConfig({ IDP_RECOVERY: "email" }).recovery).toEqual({ email: true, phone: false });
    expect(parseConfig({ IDP_RECOVERY: "phone" }).recovery).toEqual({ email: false, phone: true });
    expect(parseConfig({ IDP_RECOVERY: "off" }).recovery).toEqual({ email: false, phone: false });
    expect(() => parseConfig({ IDP_RECOVERY: "sms" })).toThrow('IDP_RECOVERY: must be both, email, phone or off (got "sms")');
  });
});
