import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = { "@": path.resolve(import.meta.dirname) };

// unit: pure logic and in-process database tests (PGlite in memory, and PostgreSQL when
// TEST_DATABASE_URL is set). api: real HTTP against the production build, started by the global
// setup on the database named by IDP_TEST_DB (scripts/test.mjs runs it once per database).
export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["server/**/*.test.ts", "components/**/*.test.ts", "test/db/**/*.test.ts", "test/docs/**/*.test.ts"],
          setupFiles: ["test/support/unit-env.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Vitest's default is one worker less than the cores: one, on CI's two. The files are
          // independent (each opens its own PGlite and PostgreSQL databases, servers on free ports)
          // and many wait on PostgreSQL, so two at a time use both cores.
          maxWorkers: 2,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "api",
          include: ["test/api/**/*.test.ts"],
          globalSetup: ["test/api/global-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 120_000,
          // One server per run; files share it, so they run one after another.
          fileParallelism: false,
        },
      },
    ],
  },
});
