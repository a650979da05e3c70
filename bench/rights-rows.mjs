// The access-right rows of `npm run bench` and `node bench/rights.mjs`: grants seeded through the real
// command, then the v3 listings (cached after a warm-up pass, and first reads) and the v4 listing.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { root } from "../scripts/build-lib.mjs";
import { besideTrivial, load, rotating, summary } from "./load.mjs";

/** Runs `npm run idp -- seed-grants <count>` against `env`'s database (after seed-users). */
export function seedGrants(count, env) {
  const r = spawnSync(process.execPath, [path.join(root, "scripts", "idp.mjs"), "seed-grants", String(count)], { cwd: root, env: { ...process.env, ...env }, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`seed-grants failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  console.log(r.stdout.trim());
}

/**
 * `subs`: seeded subs from sampleSubs. Subjects of seeded grants are the accounts first in id order,
 * so the sorted subs start with them: `hot` of them are read in turn (cached after one pass), as many
 * others once each. `bearer`: headers with a token holding idp_rights_full_access.
 */
export async function rightsRows(baseUrl, bearer, subs, hot = 4_000) {
  const contextPath = new URL(baseUrl).pathname;
  const sorted = [...subs].sort();
  const count = Math.min(hot, Math.floor(sorted.length / 2));
  const hotSubs = sorted.slice(0, count);
  const cold = sorted.slice(count, 2 * count);
  const paths = (kind, list) => list.map((s) => `${contextPath}/api/${kind}/${s}`);
  // Each cached row right after its warm-up pass: entries live 3¾–5 min (keyed-cache.ts).
  const cached = async (kind) => {
    await load(baseUrl, { ...rotating(paths(kind, hotSubs), bearer), amount: hotSubs.length });
    return besideTrivial(baseUrl, `GET /api/${kind}/{sub}, ${hotSubs.length} subs, cached`, rotating(paths(kind, hotSubs), bearer));
  };
  return {
    ofCached: await cached("v3/rights/of"),
    onCached: await cached("v3/rights/on"),
    ofFirst: summary("GET /api/v3/rights/of/{sub}, first read of each sub", await load(baseUrl, rotating(paths("v3/rights/of", cold), bearer))),
    v4: summary("GET /api/v4/rights/on/{sub} (not cached)", await load(baseUrl, rotating(paths("v4/rights/on", hotSubs), bearer))),
  };
}
