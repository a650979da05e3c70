// libuv's thread pool (4 threads unless UV_THREADPOOL_SIZE says otherwise) runs the password hashes
// (at most MAX_PARALLEL_HASHES at once, server/crypto/hash-gate.ts) and the token signatures
// (server/oauth/tokens/jwt-sign.ts), besides file system work. Sized so that hashes running at their
// limit still leave four threads to the rest: a token request does not queue behind a burst of
// sign-ins, and on more than four cores the hashes get a thread each. libuv reads the variable once,
// when the pool first starts, and Node's module loader starts it while it reads server.mjs: so the
// launchers (scripts/idp.mjs for `npm start`, scripts/server-lib.mjs for the tests and the bench) set
// it in the server's environment; the workers of a cluster inherit it. An operator's value wins.
import { MAX_PARALLEL_HASHES } from "../crypto/hash-parallelism.mjs";

/** The server's environment with UV_THREADPOOL_SIZE, unless it has one. */
export function withThreadPool(env) {
  return env.UV_THREADPOOL_SIZE ? env : { ...env, UV_THREADPOOL_SIZE: String(MAX_PARALLEL_HASHES + 4) };
}

/**
 * The pool size this process runs with, read as libuv reads the variable (atoi: leading digits;
 * 0 or none is 1 thread, more than 1024 or negative is 1024); unset, libuv's default of 4.
 */
export function threadPoolSize(env = process.env) {
  if (env.UV_THREADPOOL_SIZE === undefined) return 4;
  const n = parseInt(env.UV_THREADPOOL_SIZE, 10) || 0;
  return n === 0 ? 1 : n < 0 || n > 1024 ? 1024 : n;
}
