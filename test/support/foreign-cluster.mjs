// A stand-in for another process manager's cluster (PM2's cluster mode): a node:cluster primary that
// is not ours, forking the production server once with the arguments it was given.
import cluster from "node:cluster";
import { serverEntry } from "../../scripts/build-lib.mjs";

cluster.setupPrimary({ exec: serverEntry, args: process.argv.slice(2) });
const worker = cluster.fork();
worker.on("exit", (code) => process.exit(code ?? 1));
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => worker.process.kill(signal));
