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

/**
 * Takes an exclusive, pid-stamped lock beside the embedded database directory. PGlite is a single
 * in-process Postgres: a second process opening the same files would corrupt them, so it must get a
 * clear error instead. A lock left by a dead process is taken over.
 * Returns the function that releases it.
 */
export function lockDataDir(dbDir: string): () => void {
  mkdirSync(path.dirname(dbDir), { recursive: true });
  const lockPath = `${dbDir}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, "wx", 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      const release = () => {
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
      if (holder === process.pid) return () => undefined;
      if (Number.isInteger(holder) && isAlive(holder)) {
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
