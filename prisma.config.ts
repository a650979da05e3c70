import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { defineConfig } from "prisma/config";

// Prisma 7's CLI wants its native schema engine even for `generate`, and downloads it from a host
// these machines cannot reach. `generate`/`validate`/`format` only need *a* file at that path, so we
// point at a stub that explains itself when the real engine is absent. Migrations never use the engine:
// they are hand-written SQL applied by server/db/migrator.ts (`npm run db:migrate`).
const enginesDir = path.join(import.meta.dirname, "node_modules", "@prisma", "engines");
const hasRealEngine =
  existsSync(enginesDir) && readdirSync(enginesDir).some((f) => f.startsWith("schema-engine"));
if (!process.env.PRISMA_SCHEMA_ENGINE_BINARY && !hasRealEngine) {
  process.env.PRISMA_SCHEMA_ENGINE_BINARY = path.join(import.meta.dirname, "prisma", "schema-engine-stub.sh");
}

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
