#!/usr/bin/env node
// `node bench/profile-classes.mjs <file.cpuprofile> <from> <to> <operations>`: what the server's main
// thread did in one window of a CPU profile, by kind of work, per operation and as a share. Each
// sample goes to the first class below that its stack matches, so a database call made from the
// service's code counts as the database, and a socket write as a write wherever it came from.
// The window is a load's (bench/sign-in-cpu.mjs with BENCH_CPU_PROF=1 prints
// `load window (µs, monotonic): <from> <to> <operations>`). On a loaded VM the samples add up to
// more than /proc's CPU time of the thread (a sample's interval includes time the VM took the core
// away): read the shares, and /proc for the total.
import { readFileSync } from "node:fs";

const [file, from, to, ops] = process.argv.slice(2);
if (!ops) {
  console.error("usage: node bench/profile-classes.mjs <file.cpuprofile> <from> <to> <operations>");
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, "utf8"));
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const WRITES = /^(writev|writeLatin1String|writeBuffer|writeUtf8String)$/;
const DATABASE = /@prisma|node_modules\/pg\/|node_modules\/pg-|@electric-sql\/pglite|^wasm:/;
/** [class, test of the leaf frame and the stack (leaf first)] in order: the first that matches takes the sample. */
const CLASSES = [
  ["garbage collection", (leaf) => leaf.functionName === "(garbage collector)"],
  ["socket writes to the database (the driver's queries)", (leaf, stack) => WRITES.test(leaf.functionName) && stack.some((f) => /node_modules\/pg\//.test(f.url))],
  ["socket writes of HTTP answers", (leaf) => WRITES.test(leaf.functionName)],
  ["WebAuthn: @simplewebauthn, WebCrypto", (leaf, stack) => stack.some((f) => /@simplewebauthn|node:internal\/crypto\/(webcrypto|ec)/.test(f.url))],
  ["database client: Prisma (and its WebAssembly query compiler), pg, PGlite", (leaf, stack) => stack.some((f) => DATABASE.test(f.url))],
  ["async_hooks (AsyncLocalStorage's promise hooks on Node 20)", (leaf) => /async_hooks/.test(leaf.url)],
  ["other node:crypto (hashes, HMAC, random)", (leaf, stack) => stack.some((f) => /node:internal\/crypto|node:crypto/.test(f.url))],
  ["the service's code (Next's bundles: routes, pages, flows, sessions)", (leaf, stack) => stack.some((f) => /\/\.next\//.test(f.url))],
  ["node:http, streams, the transport", (leaf, stack) => stack.some((f) => /node:_http|node:net|streams|server\/serve\//.test(f.url))],
  ["microtask queue", (leaf) => leaf.functionName === "runMicrotasks"],
  ["other", () => true],
];

const per = new Map();
let total = 0;
let t = profile.startTime;
for (let i = 0; i < profile.samples.length; i++) {
  t += profile.timeDeltas[i];
  if (t < Number(from) || t > Number(to)) continue;
  const leaf = nodes.get(profile.samples[i]);
  if (leaf.callFrame.functionName === "(idle)") continue;
  const weight = profile.timeDeltas[i + 1] ?? 0;
  const stack = [];
  for (let id = leaf.id; id !== undefined; id = parent.get(id)) stack.push(nodes.get(id).callFrame);
  const [name] = CLASSES.find(([, test]) => test(leaf.callFrame, stack));
  per.set(name, (per.get(name) ?? 0) + weight);
  total += weight;
}
console.log(`${(total / Number(ops) / 1000).toFixed(2)} ms of samples per operation\n\n| share | ms per operation | what |\n|---|---|---|`);
for (const [name, w] of [...per].sort((a, b) => b[1] - a[1])) console.log(`| ${((100 * w) / total).toFixed(0)} % | ${(w / Number(ops) / 1000).toFixed(2)} | ${name} |`);
