import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { cliMeta, root } from "../../scripts/build-lib.mjs";
import { startServer } from "../../scripts/server-lib.mjs";

// A production install is `npm ci && npm run build`, then `npm prune --omit=dev --omit=optional`
// (docs/operations/commands.md): what runs must need none of the tools that build. `--omit=optional`
// because npm keeps the prisma CLI otherwise: @prisma/client names it as an optional peer, which
// makes it "devOptional", omitted only when both kinds are.
const BUILD_TOOLS = ["prisma", "@prisma/engines", "tsx", "esbuild", "vitest", "@playwright/test", "eslint"];
const postgres = inject("dbKind") === "postgres";

type TLock = { packages: Record<string, { dev?: boolean; devOptional?: boolean }> };
const lock = JSON.parse(readFileSync(path.join(root, "package-lock.json"), "utf8")) as TLock;
const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { dependencies: Record<string, string> };

/** `@scope/name/sub/path` → `@scope/name`; `name/sub` → `name`. */
const packageOf = (specifier: string) => specifier.split("/").slice(0, specifier.startsWith("@") ? 2 : 1).join("/");

describe("production dependencies", () => {
  it("the build tools are development dependencies only", () => {
    for (const tool of BUILD_TOOLS) {
      const entry = lock.packages[`node_modules/${tool}`];
      expect(entry, tool).toBeDefined();
      expect(entry!.dev === true || entry!.devOptional === true, `${tool} is a production dependency`).toBe(true);
      expect(manifest.dependencies[tool], tool).toBeUndefined();
    }
  });

  it("the bundled CLI imports only Node's modules and production dependencies", () => {
    const meta = JSON.parse(readFileSync(cliMeta, "utf8")) as { outputs: Record<string, { imports: { path: string; external?: boolean }[] }> };
    const external = new Set(Object.values(meta.outputs).flatMap((o) => o.imports.filter((i) => i.external).map((i) => i.path)));
    expect(external.size).toBeGreaterThan(5);
    for (const specifier of external) {
      if (specifier.startsWith("node:") || builtinModules.includes(specifier)) continue;
      expect(manifest.dependencies[packageOf(specifier)], `${specifier} is not a production dependency`).toBeDefined();
    }
  });

  // One database kind is enough: this is about files on disk, and the run installs packages.
  it.skipIf(postgres)(
    "a copy of the checkout and its build, pruned as documented, migrates, checks its configuration and serves, with no build tool installed",
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), "idp-production-"));
      const data = mkdtempSync(path.join(tmpdir(), "idp-production-data-"));
      // The checkout as a deployment has it: sources and the build, not the generated database client
      // (the build carries it), nor the development install, the build cache or local data.
      const left = new Set(["node_modules", ".git", "data", "test-results", "playwright-report", path.join(".next", "cache"), path.join("server", "db", "generated"), path.join("bench", "results")]);
      cpSync(root, dir, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true, filter: (src) => !left.has(path.relative(root, src)) });
      try {
        const npm = (args: string[]) => spawnSync("npm", [...args, "--prefer-offline", "--no-audit", "--no-fund"], { cwd: dir, encoding: "utf8", env: { ...process.env, npm_config_loglevel: "error" } });
        const install = npm(["ci"]);
        expect(install.status, install.stderr).toBe(0);
        const lockBefore = statSync(path.join(dir, "package-lock.json")).mtimeMs;
        const prune = npm(["prune", "--omit=dev", "--omit=optional"]);
        expect(prune.status, prune.stderr).toBe(0);
        for (const tool of BUILD_TOOLS) expect(existsSync(path.join(dir, "node_modules", tool)), `${tool} is still installed`).toBe(false);
        // npm prune writes package-lock.json again (unchanged): the build must still count as current.
        expect(statSync(path.join(dir, "package-lock.json")).mtimeMs).toBeGreaterThanOrEqual(lockBefore);
        // The build carries the database client: the one the install generated is not needed.
        rmSync(path.join(dir, "server", "db", "generated"), { recursive: true, force: true });

        const env = { ...process.env, IDP_DATA_DIR: data, DATABASE_URL: "", IDP_ADMIN_PASSWORD: "production-admin-password" };
        const migrate = spawnSync(process.execPath, ["scripts/idp.mjs", "migrate"], { cwd: dir, env, encoding: "utf8" });
        expect(migrate.status, migrate.stderr).toBe(0);
        expect(migrate.stdout).toMatch(/^applied: 20261121000000_init, /);
        const again = spawnSync(process.execPath, ["scripts/idp.mjs", "migrate"], { cwd: dir, env, encoding: "utf8" });
        expect(again.stdout.trim()).toBe("database is up to date");
        const bad = spawnSync(process.execPath, ["scripts/idp.mjs", "check-config"], { cwd: dir, env: { ...env, IDP_ACCESS_TOKEN_TTL: "soon" }, encoding: "utf8" });
        expect(bad.status).toBe(1);
        expect(bad.stderr).toContain("IDP_ACCESS_TOKEN_TTL");

        const server = await startServer({ cwd: dir, entry: [path.join(dir, "scripts", "idp.mjs"), "start"], env: { IDP_DATA_DIR: data, DATABASE_URL: "", IDP_ADMIN_PASSWORD: "production-admin-password" } });
        try {
          expect(server.output()).not.toContain("building");
          const discovery = await fetch(`${server.baseUrl}/.well-known/openid-configuration`);
          expect(discovery.status).toBe(200);
          expect((await discovery.json()).issuer).toBe(server.baseUrl);
          // A page Next renders, and an API operation the fast path answers.
          expect((await fetch(`${server.baseUrl}/console/sign-in`)).status).toBe(200);
          const api = await fetch(`${server.baseUrl}/api/v3/users/current`);
          expect(api.status).toBe(401);
        } finally {
          await server.stop();
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
        rmSync(data, { recursive: true, force: true });
      }
    },
    300_000,
  );
});
