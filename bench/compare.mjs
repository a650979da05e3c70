// The comparison section of `npm run bench`: the token endpoint and one
// bearer-authenticated read, measured the same way on this service with the fast path, through Next
// (IDP_FAST_PATH=0), with IDP_WORKERS=2 (PostgreSQL only) and on panva's oidc-provider started here
// (bench/oidc-provider-peer.mjs); then the table and the issue's goals, each marked met or not met.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { root } from "../scripts/build-lib.mjs";
import { load, rotating, summary } from "./load.mjs";

/** Resident memory (VmRSS, MB) of `pid` and every process below it: a server of several workers is all of them. */
export function treeRssMb(pid) {
  const tree = processTree(pid);
  let kb = 0;
  for (const p of tree) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      // exited between the listing and the read
    }
  }
  return { mb: Math.round(kb / 1024), processes: tree.length };
}

/** `pid` and its descendants, from the parent pids in /proc/<pid>/stat. */
function processTree(pid) {
  const children = new Map();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      // "pid (comm) state ppid …": comm may hold spaces and parentheses, so split after the last ")".
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(name));
    } catch {
      // exited meanwhile
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]) ?? []));
  return tree;
}

/**
 * The two rows on one running server: `tokenUrl` with the client_credentials request, then (when
 * `readPaths` is given) GETs walking `readPaths` with a token from that same endpoint. Warm-up first
 * (JIT, pools, the client's cached secret check; one pass over the reads fills the account cache),
 * as for the main rows. RSS of the process tree: 2 s after start (`idle`, when the caller took it
 * already), and right after the two rows.
 */
export async function measureServer({ label, pid, origin, tokenUrl, tokenRequest, readPaths, output, idle }) {
  if (!idle) {
    await sleep(2_000);
    idle = treeRssMb(pid);
  }
  await load(tokenUrl, { ...tokenRequest, duration: 3 });
  const grants = summary(`${label}: POST token, client_credentials`, await load(tokenUrl, tokenRequest));
  let read;
  if (readPaths) {
    const res = await fetch(tokenUrl, tokenRequest);
    if (res.status !== 200) throw new Error(`${label}: no token (${res.status}): ${await res.text()}`);
    const bearer = { authorization: `Bearer ${(await res.json()).access_token}` };
    await load(origin, { ...rotating(readPaths, bearer), amount: readPaths.length });
    await load(origin, { ...rotating(readPaths, bearer), duration: 2 });
    read = summary(`${label}: GET /api/v3/users/{sub}, bearer`, await load(origin, rotating(readPaths, bearer)));
  }
  const after = treeRssMb(pid);
  // The worker count, if the server says it in its log (a JSON field "workers"); the process count otherwise.
  const workers = output ? /"workers":\s*(\d+)/.exec(output())?.[1] : undefined;
  return { label, grants, read, rss: { idle: idle.mb, afterLoad: after.mb }, processes: after.processes, workers: workers ? Number(workers) : undefined };
}

/**
 * oidc-provider in a child process with `client` ({ id, secret, scope }); resolves once it listens.
 * stop() ends it and waits for its exit.
 */
export async function startOidcProvider(client) {
  const child = spawn(process.execPath, [path.join(root, "bench", "oidc-provider-peer.mjs")], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production", PEER_CLIENT_ID: client.id, PEER_CLIENT_SECRET: client.secret, PEER_SCOPE: client.scope },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  child.stderr.on("data", (d) => (err += d));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const port = await new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const m = /\{"port":(\d+)\}/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    exited.then((code) => reject(new Error(`oidc-provider exited with ${code}:\n${out}${err}`)));
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    pid: child.pid,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await Promise.race([exited, sleep(5_000)]);
      if (child.exitCode === null) child.kill("SIGKILL");
    },
  };
}

const fmt = (x) => (x === undefined ? "—" : x.toFixed(2));

/** Goal lines: `value` against `goal` (undefined: not measured in this run, with `why`). */
function goalLine(text, value, goal, note = "") {
  if (value === undefined) return `- ${text}: not measured${note ? ` (${note})` : ""}`;
  if (goal === undefined) return `- ${text}: ${fmt(value)}${note ? ` (${note})` : ""}`;
  return `- ${text}: ${fmt(value)} (goal ≥ ${goal.toFixed(1)}: ${value >= goal ? "met" : "NOT met"})${note ? ` (${note})` : ""}`;
}

/** The comparison table and the goals; returns the ratios for the result file. */
export function printComparison({ fast, next, workers2, peer }, db) {
  console.log(`\ncomparison: token endpoint and bearer read, ${db}, the same load generator, connections and duration as above`);
  console.log("\n| server | grants/s | token p99 ms | read req/s | read p99 ms | processes | RSS MB idle → after load |");
  console.log("|---|---|---|---|---|---|---|");
  for (const r of [fast, next, workers2, peer]) {
    if (!r) continue;
    const procs = r.workers !== undefined ? `${r.processes} (workers: ${r.workers})` : r.processes;
    const read = r.read ? `| ${r.read.rps} | ${r.read.p99} ` : "| — (no resource API) | — ";
    console.log(`| ${r.label} | ${r.grants.rps} | ${r.grants.p99} ${read}| ${procs} | ${r.rss.idle} → ${r.rss.afterLoad} |`);
  }
  const ratios = {
    fastOverPeer: peer ? fast.grants.rps / peer.grants.rps : undefined,
    readOverToken: fast.read ? fast.read.rps / fast.grants.rps : undefined,
    workers2OverOne: workers2 ? workers2.grants.rps / fast.grants.rps : undefined,
    workers2OverOneRead: workers2?.read && fast.read ? workers2.read.rps / fast.read.rps : undefined,
    fastOverNext: next ? fast.grants.rps / next.grants.rps : undefined,
    fastOverNextRead: next?.read && fast.read ? fast.read.rps / next.read.rps : undefined,
  };
  console.log("\ngoals (the fast path's):");
  console.log(goalLine("fast-path grants/s ÷ oidc-provider grants/s", ratios.fastOverPeer, 1.0));
  const onPg = db === "postgres";
  console.log(goalLine("read ÷ token endpoint on the fast path", ratios.readOverToken, onPg ? 0.5 : undefined, onPg ? "" : "the goal (≥ 0.5) is set for PostgreSQL: run with BENCH_DB=postgres"));
  console.log(goalLine("IDP_WORKERS=2 ÷ 1 worker, grants/s", ratios.workers2OverOne, 1.6, onPg ? "" : "PostgreSQL only: run with BENCH_DB=postgres"));
  console.log(goalLine("IDP_WORKERS=2 ÷ 1 worker, reads/s", ratios.workers2OverOneRead, 1.6, onPg ? "" : "PostgreSQL only"));
  console.log(goalLine("fast path ÷ Next, grants/s", ratios.fastOverNext, undefined, "no goal"));
  console.log(goalLine("fast path ÷ Next, reads/s", ratios.fastOverNextRead, undefined, "no goal"));
  return ratios;
}
