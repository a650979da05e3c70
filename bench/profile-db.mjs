#!/usr/bin/env node
// `node bench/profile-db.mjs <file.cpuprofile> <bench output>`: for each load of a bench run (the
// `[window]` lines that BENCH_WINDOWS=1 prints), the server's main-thread CPU per request and the
// part of it spent in the database (PGlite and its WebAssembly, Prisma and its adapters), from the
// CPU profile of the same run (BENCH_CPU_PROF=1). A "cached" row that shows database time is not
// reading from its caches: this is how the expiry wave of bench/README.md was found.
import { readFileSync } from "node:fs";

const [file, output] = process.argv.slice(2);
if (!output) {
  console.error("usage: node bench/profile-db.mjs <file.cpuprofile> <bench output with [window] lines>");
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, "utf8"));
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const DATABASE = /@electric-sql\/pglite|^wasm:|prisma/;

// Each sample's time on the profile's clock, and its weight (the gap to the next sample).
const at = [];
let t = profile.startTime;
for (const delta of profile.timeDeltas) at.push((t += delta));

console.log("| # | start (s into the profile) | load | requests | CPU µs per request | database µs per request |\n|---|---|---|---|---|---|");
let row = 0;
for (const line of readFileSync(output, "utf8").split("\n")) {
  const m = /\[window\] (\d+) (\d+) (\d+) (\S+)( rotating)?/.exec(line);
  if (!m) continue;
  const [from, to, requests] = [Number(m[1]), Number(m[2]), Number(m[3])];
  let all = 0;
  let db = 0;
  for (let i = 0; i < at.length; i++) {
    if (at[i] < from || at[i] > to) continue;
    const frame = nodes.get(profile.samples[i]).callFrame;
    if (frame.functionName === "(idle)") continue;
    const weight = profile.timeDeltas[i + 1] ?? 0;
    all += weight;
    if (DATABASE.test(frame.url)) db += weight;
  }
  const what = `${new URL(m[4]).pathname}${m[5] ? " (rotating paths)" : ""}`;
  console.log(`| ${++row} | ${((from - profile.startTime) / 1e6).toFixed(0)} | ${what} | ${requests} | ${(all / requests).toFixed(1)} | ${(db / requests).toFixed(1)} |`);
}
