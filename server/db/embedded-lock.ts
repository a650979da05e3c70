import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";

/** Raised when another live process holds the embedded database. */
export class DataDirBusyError extends Error {
  override name = "DataDirBusyError";
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to someone else; it still holds the lock.
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

// The data dirs this process holds open. On globalThis because Next bundles the database module once
// per bundle: a module-level Set would let two bundles each believe they hold nothing.
const HELD = Symbol.for("idp.embedded-locks");
function held(): Set<string> {
  const g = globalThis as { [HELD]?: Set<string> };
  return (g[HELD] ??= new Set());
}

/**
 * Takes an exclusive, pid-stamped lock beside the embedded database directory. PGlite is a single
 * in-process Postgres: a second process opening the same files would corrupt them, so it must get a
 * clear error instead, and so must a second open inside this process (two PGlite instances on the
 * same files are as harmful as two processes). A lock left by a dead process is taken over; so is a
 * lock carrying this process's own pid that this process does not hold (a container restarted after
 * a crash often gets the same pid as its predecessor).
 * Returns the function that releases it.
 */
export function lockDataDir(dbDir: string): () => void {
  mkdirSync(path.dirname(dbDir), { recursive: true });
  const lockPath = `${dbDir}.lock`;
  const mine = held();
  const key = path.resolve(lockPath);
  if (mine.has(key)) {
    throw new DataDirBusyError(`the embedded database in ${dbDir} is already open in this process (${process.pid}); it must be opened once`);
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, "wx", 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      mine.add(key);
      const release = () => {
        mine.delete(key);
        try {
          if (readFileSync(lockPath, "utf8") === String(process.pid)) unlinkSync(lockPath);
        } catch {
          // Already gone: nothing to release.
        }
      };
      process.once("exit", release);
      return release;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const holder = Number.parseInt(readFileSync(lockPath, "utf8"), 10);
      if (holder !== process.pid && Number.isInteger(holder) && isAlive(holder)) {
        throw new DataDirBusyError(
          `the embedded database in ${dbDir} is in use by process ${holder}; ` +
            "stop that process or set IDP_DATA_DIR to another folder",
        );
      }
      unlinkSync(lockPath);
    }
  }
  throw new DataDirBusyError(`could not lock ${lockPath}`);
}
