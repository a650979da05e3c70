#!/usr/bin/env node
// `node bench/directory-import.mjs`: a full synchronisation of a directory of BENCH_ENTRIES (default
// 100,000) people from a real slapd on loopback (TLS, the test's configuration), through the command
// line (`npm run idp -- sync-directory <id> --full`) on a fresh embedded database (BENCH_DB=postgres:
// a throw-away database on TEST_DATABASE_URL's server). Prints the run's report, the command's wall
// time, CPU time and peak memory (GNU time), then the same for an incremental run with nothing
// changed. slapd's own CPU is not counted: it is the directory's, not ours.
import { spawnSync } from "node:child_process";
import { performance } from "node:perf_hooks";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildIfStale, root } from "../scripts/build-lib.mjs";
import { createPgDatabase } from "../scripts/server-lib.mjs";

const entries = Number(process.env.BENCH_ENTRIES ?? 100_000);
const usePostgres = process.env.BENCH_DB === "postgres";

// The test's slapd (TypeScript, loaded through tsx); this process only talks to it.
const { tsImport } = await import("tsx/esm/api");
const { startSlapd, person, BASE_DN, READER } = await tsImport("../test/support/slapd.ts", import.meta.url);

buildIfStale({ ...process.env });
const dir = mkdtempSync(path.join(tmpdir(), "idp-directory-bench-"));
let ldif = "";
for (let i = 0; i < entries; i++) ldif += person({ uid: `u${i}`, password: `password-${i}`, givenName: `Given${i}`, sn: `Family${i}`, mail: `u${i}@example.org` });
const slapdStarted = performance.now();
const slapd = await startSlapd(ldif);
console.log(`slapd with ${entries} entries ready in ${((performance.now() - slapdStarted) / 1000).toFixed(1)} s`);

const db = usePostgres ? await createPgDatabase(process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres") : undefined;
const env = { ...process.env, IDP_DATA_DIR: dir, IDP_SECRET_KEY: "bench-secret-key-0123456789abcdef", ...(db ? { DATABASE_URL: db.url } : {}) };
const importFile = path.join(dir, "directory.json");
writeFileSync(importFile, JSON.stringify({ directories: [{
  id: "corp", name: "Bench directory", url: slapd.ldapsUrl, caCert: slapd.caPem, bindDn: READER.dn, bindPassword: READER.password,
  baseDn: `ou=people,${BASE_DN}`, disabledFilter: "(pwdAccountLockedTime=*)", mode: "synchronised", syncIntervalS: 0,
  attributes: [{ from: "givenName", to: "given_name" }, { from: "sn", to: "family_name" }, { from: "mail", to: "email", transform: "email", verified: true }],
}] }));

/** `npm run idp -- …` under GNU time: its output, wall seconds, CPU seconds and peak resident memory. */
function timed(args) {
  const r = spawnSync("/usr/bin/time", ["-f", "TIME %e %U %S %M", process.execPath, path.join(root, "scripts", "idp.mjs"), ...args], { cwd: root, env, encoding: "utf8" });
  const m = /TIME ([\d.]+) ([\d.]+) ([\d.]+) (\d+)/.exec(r.stderr);
  if (r.status !== 0 || !m) throw new Error(`idp ${args.join(" ")} failed:\n${r.stdout}\n${r.stderr}`);
  return { out: r.stdout.trim(), wall: Number(m[1]), cpu: Number(m[2]) + Number(m[3]), rssMiB: Number(m[4]) / 1024 };
}

try {
  timed(["import", importFile]);
  // An incremental run asks for changes since a minute before the last run started (the two clocks'
  // margin): the entries must be older than that for "nothing changed" to be what it measures.
  await new Promise((r) => setTimeout(r, 61_000));
  const full = timed(["sync-directory", "corp", "--full"]);
  const quiet = timed(["sync-directory", "corp"]);
  console.log(`\n${usePostgres ? "PostgreSQL" : "embedded"} database, ${entries} entries\n`);
  console.log("| run | wall s | CPU s | peak RSS MiB | entries/s (wall) | report |");
  console.log("|---|---|---|---|---|---|");
  for (const [name, r] of [["full", full], ["incremental, nothing changed", quiet]]) {
    console.log(`| ${name} | ${r.wall.toFixed(1)} | ${r.cpu.toFixed(1)} | ${r.rssMiB.toFixed(0)} | ${name === "full" ? Math.round(entries / r.wall) : "—"} | ${r.out.split("\n").slice(0, 2).join("; ")} |`);
  }
} finally {
  await slapd.close();
  await db?.drop();
  rmSync(dir, { recursive: true, force: true });
}
