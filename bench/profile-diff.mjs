#!/usr/bin/env node
// `node bench/profile-diff.mjs <file.cpuprofile> <fromA> <toA> <requestsA> <fromB> <toB> <requestsB> [cat]`:
// what row B costs beyond row A, per request, by function (or with `cat`, by package or file), from
// one CPU profile that covers both rows (bench/reads-cpu.mjs with BENCH_CPU_PROF=1 prints each row's
// window on the profile's clock). The self time of each function in each window is divided by that
// row's requests; the largest differences come first. Time the main thread spent idle is left out.
// V8 samples once a millisecond by default: over a few thousand samples per row the figures hold to a
// few percent, and a function V8 inlined is counted in its caller.
import { readFileSync } from "node:fs";

const [file, a0, a1, an, b0, b1, bn, mode = "fn"] = process.argv.slice(2);
if (!bn) {
  console.error("usage: node bench/profile-diff.mjs <file.cpuprofile> <fromA> <toA> <requestsA> <fromB> <toB> <requestsB> [cat]");
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, "utf8"));
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));

/** A package, a file of the build's chunks, a node: module, or a native frame. */
function where(frame) {
  const url = frame.url || "";
  if (!url) return frame.functionName || "(native)";
  const pkg = url.match(/node_modules\/((@[^/]+\/)?[^/]+)/);
  if (pkg) return `pkg:${pkg[1]}`;
  if (url.startsWith("node:")) return url;
  const chunk = url.match(/\/\.next\/.*?([^/]+)$/);
  return chunk ? `next:${chunk[1]}` : url.replace(/^file:\/\/.*?\/(server|app|scripts|bench)\//, "$1/");
}
const key = (frame) => (mode === "cat" ? where(frame) : `${frame.functionName || "(anonymous)"} ${where(frame)}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`);

function selfTimes(from, to) {
  const times = new Map();
  let t = profile.startTime;
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    if (t < Number(from) || t > Number(to)) continue;
    const frame = nodes.get(profile.samples[i]).callFrame;
    if (frame.functionName === "(idle)") continue;
    const d = profile.timeDeltas[i + 1] ?? 0;
    total += d;
    times.set(key(frame), (times.get(key(frame)) ?? 0) + d);
  }
  return { times, total };
}

const A = selfTimes(a0, a1);
const B = selfTimes(b0, b1);
console.log(`A: ${(A.total / Number(an)).toFixed(1)} µs per request, B: ${(B.total / Number(bn)).toFixed(1)} µs per request\n\n   A µs    B µs  B − A  where`);
const rows = [...new Set([...A.times.keys(), ...B.times.keys()])].map((k) => {
  const a = (A.times.get(k) ?? 0) / Number(an);
  const b = (B.times.get(k) ?? 0) / Number(bn);
  return { k, a, b, d: b - a };
});
for (const r of rows.sort((x, y) => y.d - x.d).slice(0, Number(process.env.TOP ?? 40))) {
  console.log(`${r.a.toFixed(1).padStart(7)} ${r.b.toFixed(1).padStart(7)} ${r.d.toFixed(1).padStart(6)}  ${r.k}`);
}
