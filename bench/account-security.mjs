// Account-security rows of bench/run.mjs: the reads GET …/auth, …/state and …/props over thousands of
// accounts (each next to the trivial route), and system-mode password changes (POST …/pswd) next to
// raw argon2id hashes per second of the server's parameters in this process.
import argon2 from "argon2";
import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import { besideTrivial, load, rotating, summary } from "./load.mjs";

export const SECURITY_SCOPES = "idp_api_sys_usec idp_api_sys_usec_chg idp_api_sys_users idp_api_sys_users_chg";

/** Each read over `subs` (a warm-up pass first, so the row shows steady state). */
export async function securityReads(baseUrl, contextPath, bearer, subs) {
  const rows = [];
  for (const what of ["auth", "state", "props"]) {
    const paths = subs.map((s) => `${contextPath}/api/v3/users/${s}/${what}`);
    await load(baseUrl, { ...rotating(paths, bearer), amount: paths.length });
    rows.push(await besideTrivial(baseUrl, `GET /api/v3/users/{sub}/${what}, ${paths.length} subs`, rotating(paths, bearer)));
  }
  return rows;
}

/** The instanceIds of `subs` (…/pswd names an account version, not a sub), read one by one before the load. */
async function instanceIdsOf(baseUrl, bearer, subs) {
  const ids = [];
  for (const sub of subs) {
    const res = await fetch(`${baseUrl}/api/v3/users/${sub}`, { headers: bearer });
    if (res.status !== 200) throw new Error(`reading ${sub} answered ${res.status}`);
    ids.push((await res.json()).meta.instanceId);
  }
  return ids;
}

/**
 * System-mode password changes, each of another account (so no two wait on one account's row) and
 * each a new password (so the history never refuses one): the server hashes it with argon2id. At
 * tens of changes a second, 2,000 accounts are each changed about once.
 */
export async function passwordChanges(baseUrl, contextPath, bearer, subs) {
  const instanceIds = await instanceIdsOf(baseUrl, bearer, subs.slice(0, 2_000));
  let next = 0;
  const request = {
    method: "POST",
    setupRequest: (req) => ({
      ...req,
      path: `${contextPath}/api/v3/users/${instanceIds[next++ % instanceIds.length]}/pswd`,
      body: JSON.stringify({ password: `Bench-${randomBytes(9).toString("base64url")}` }),
    }),
  };
  const res = await load(baseUrl, { headers: { ...bearer, "content-type": "application/json" }, requests: [request] });
  return summary("POST /api/v3/users/{sub}/pswd, system mode (new password each time)", res);
}

/** Raw argon2id hashes per second with the server's parameters, as many at once as libuv has threads. */
export async function argon2HashCeiling(seconds) {
  const parallel = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
  let done = 0;
  const t0 = performance.now();
  const deadline = t0 + seconds * 1000;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (performance.now() < deadline) {
        await argon2.hash(`bench-${done}`, { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 });
        done += 1;
      }
    }),
  );
  return Math.round((done / ((performance.now() - t0) / 1000)) * 10) / 10;
}
