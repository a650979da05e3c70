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

  it("derives the issuer from the public URL and context path", () => {
    const c = parseConfig({ IDP_PUBLIC_URL: "https://id.example.com/", IDP_CONTEXT_PATH: "/auth/v2/" });
    expect(c.issuer).toBe("https://id.example.com/auth/v2");
    expect(parseConfig({ IDP_CONTEXT_PATH: "/" }).issuer).toBe("http://localhost:3000");
  });

  it("uses PostgreSQL when DATABASE_URL is set, and then requires IDP_SECRET_KEY", () => {
    expect(() => parseConfig({ DATABASE_URL: "postgresql://u@h/db" })).toThrow("IDP_SECRET_KEY: is required when DATABASE_URL is set");
    const c = parseConfig({ DATABASE_URL: "postgresql://u@h/db", IDP_SECRET_KEY: "x".repeat(32) });
    expect(c.database).toEqual({ kind: "postgres", url: "postgresql://u@h/db" });
  });

  it.each([
    [{ PORT: "http" }, /^PORT: must be a whole number between 1 and 65535 \(got "http"\)$/],
    [{ PORT: "70000" }, /^PORT: must be at most 65535/],
    [{ IDP_ACCESS_TOKEN_TTL: "10" }, /^IDP_ACCESS_TOKEN_TTL: must be at least 60/],
    [{ IDP_PUBLIC_URL: "ftp://x" }, /^IDP_PUBLIC_URL: must be an http\(s\) URL/],
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
});
