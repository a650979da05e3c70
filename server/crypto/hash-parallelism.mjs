// Plain JavaScript: server/serve/threadpool.mjs, which runs before any bundle, sizes libuv's pool by it.
import { availableParallelism } from "node:os";

/** Password hashes (argon2, bcrypt) running at once at most (hash-gate.ts): one per core, 2 to 8. */
export const MAX_PARALLEL_HASHES = Math.min(Math.max(availableParallelism(), 2), 8);
