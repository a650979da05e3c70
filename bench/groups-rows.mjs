// The group-search row of `npm run bench`: groups seeded through the real command (after seed-users,
// whose accounts become members), then an RQL search over all profiles beside the trivial route.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { root } from "../scripts/build-lib.mjs";
import { besideTrivial, rotating } from "./load.mjs";

/** Runs `npm run idp -- seed-groups <count>` against `env`'s database. */
export function seedGroups(count, env) {
  const r = spawnSync(process.execPath, [path.join(root, "scripts", "idp.mjs"), "seed-groups", String(count)], { cwd: root, env: { ...process.env, ...env }, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`seed-groups failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  console.log(r.stdout.trim());
}

// Seeded groups carry region r0…r49 (about count/50 groups each): the search walks the regions, so
// every request filters, sorts and pages a different set. eq() compiles to jsonb containment (GIN index).
const REGIONS = 50;
export const groupSearchRql = (region) => `eq(region,r${region})&like(name,*1*)&sort(-name)&limit(20)`;

/** `bearer`: headers with a token holding idp_api_sys_groups. */
export async function groupRows(baseUrl, bearer, groupCount) {
  const contextPath = new URL(baseUrl).pathname;
  const paths = Array.from({ length: REGIONS }, (_, r) => `${contextPath}/api/v3/groups/search?rql=${encodeURIComponent(groupSearchRql(r))}`);
  const name = `GET /api/v3/groups/search?rql=${groupSearchRql("{n}")} over ${groupCount.toLocaleString("en")} groups`;
  return { search: await besideTrivial(baseUrl, name, rotating(paths, bearer)) };
}
