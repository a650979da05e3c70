import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startServer } from "../../scripts/server-lib.mjs";
import { Browser } from "../support/browser.ts";
import { appSignIn } from "../support/console.ts";

/*
 * The embedded mode's first start prints a generated administrator password: it has been on a
 * terminal (and maybe in a log), so the first sign-in with it must replace it. A server of its own,
 * started without IDP_ADMIN_PASSWORD (PostgreSQL requires one, so this is the embedded run's).
 */
describe.skipIf(inject("dbKind") === "postgres")("the administrator a first start creates with a printed password", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  const dataDir = mkdtempSync(path.join(tmpdir(), "idp-bootstrap-"));

  beforeAll(async () => {
    server = await startServer({ env: { IDP_DATA_DIR: dataDir, IDP_ADMIN_PASSWORD: "" } });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("must choose a new password at the first sign-in", async () => {
    const printed = /as "admin" with password: (\S+)\n\s+\(you will be asked to choose a new one\)/.exec(server.output())?.[1];
    expect(printed).toBeDefined();
    const landed = await appSignIn(new Browser({}, server.baseUrl), server.baseUrl, "console", "admin", printed!);
    expect(landed.status).toBe(200);
    expect(landed.url).toContain("/login/password?");
  });
});
