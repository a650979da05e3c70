import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../server/db/database.ts";
import { DataDirBusyError, lockDataDir } from "../../server/db/embedded-lock.ts";

const tmp = () => mkdtempSync(path.join(tmpdir(), "idp-lock-"));

describe("embedded database lock", () => {
  it("gives a second process a clear error instead of opening the same data dir", async () => {
    const dataDir = tmp();
    const db = await openDatabase({ kind: "embedded", dir: path.join(dataDir, "pglite") });
    try {
      const other = spawnSync(process.execPath, ["scripts/idp.mjs", "migrate"], {
        env: { ...process.env, IDP_DATA_DIR: dataDir },
        encoding: "utf8",
      });
      expect(other.status).toBe(1);
      expect(other.stderr).toContain(`is in use by process ${process.pid}`);
      // The holder is unharmed.
      expect(await db.sql.session((s) => s.query("SELECT 1 AS ok"))).toEqual([{ ok: 1 }]);
    } finally {
      await db.close();
    }
    // Released on close: the next process may open it.
    const after = spawnSync(process.execPath, ["scripts/idp.mjs", "migrate"], { env: { ...process.env, IDP_DATA_DIR: dataDir }, encoding: "utf8" });
    expect(after.status).toBe(0);
  }, 120_000); // starts a second Node process with PGlite, slow on a loaded machine

  it("refuses a lock held by another live process and takes over one left by a dead process", async () => {
    const dir = path.join(tmp(), "pglite");
    const sleeper = spawn("sleep", ["30"]);
    writeFileSync(`${dir}.lock`, String(sleeper.pid));
    expect(() => lockDataDir(dir)).toThrow(DataDirBusyError);
    sleeper.kill();
    await new Promise((r) => sleeper.once("exit", r));
    const release = lockDataDir(dir);
    release();
  });

  it("refuses a second open of the same data dir inside one process, and allows it again after close", async () => {
    const dir = path.join(tmp(), "pglite");
    const db = await openDatabase({ kind: "embedded", dir });
    try {
      await expect(openDatabase({ kind: "embedded", dir })).rejects.toThrow(/already open in this process/);
      // A relative spelling of the same folder is the same database.
      expect(() => lockDataDir(path.relative(process.cwd(), dir))).toThrow(DataDirBusyError);
      // The first instance is unharmed and still holds the lock file.
      expect(await db.sql.session((s) => s.query("SELECT 1 AS ok"))).toEqual([{ ok: 1 }]);
      expect(readFileSync(`${dir}.lock`, "utf8")).toBe(String(process.pid));
    } finally {
      await db.close();
    }
    expect(existsSync(`${dir}.lock`)).toBe(false);
    const again = await openDatabase({ kind: "embedded", dir });
    await again.close();
  }, 60_000);

  it("takes over a lock stamped with this pid that this process does not hold (a restarted container)", () => {
    const dir = path.join(tmp(), "pglite");
    writeFileSync(`${dir}.lock`, String(process.pid));
    const release = lockDataDir(dir);
    expect(() => lockDataDir(dir)).toThrow(/already open in this process/);
    release();
    expect(existsSync(`${dir}.lock`)).toBe(false);
  });
});
