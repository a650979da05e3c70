#!/usr/bin/env node
// After `npm ci`: `prisma generate` writes the database client (server/db/generated, not committed),
// which the build compiles into the server and the CLI bundle. The prisma CLI is a development
// dependency: a production install (`npm ci --omit=dev` next to a finished build) has none and needs
// no client of its own, so there is nothing to do.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { root } from "./build-lib.mjs";

const prismaCli = path.join(root, "node_modules", "prisma", "build", "index.js");
if (!existsSync(prismaCli)) {
  console.log("idp: production install (no prisma CLI): the build carries the database client");
  process.exit(0);
}
const r = spawnSync(process.execPath, [prismaCli, "generate"], { cwd: root, stdio: "inherit" });
process.exit(r.status ?? 1);
