import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";

// Runs in the child: PGlite creates (initdb) and closes the data directory named by argv[1].
const INITDB = `import("@electric-sql/pglite").then(async ({ PGlite }) => { await (await PGlite.create(process.argv[1])).close(); })`;

/**
 * Creates a new embedded data directory in a short-lived child process. PGlite runs initdb in a
 * second, throw-away PGlite instance inside the calling process, and its WASM heap and the data
 * tarball it hands over stay resident until V8 happens to run a full GC, which an idle server may
 * not do for hours: a first start measured 590-790 MB resident where a restart holds ~290 MB
 * (bench/README.md, Memory). In a child, that memory goes when the child exits. The caller holds
 * the data-dir lock.
 */
export async function createEmbeddedDataDir(dir: string): Promise<void> {
  if (existsSync(path.join(dir, "PG_VERSION"))) return;
  try {
    await promisify(execFile)(process.execPath, ["-e", INITDB, dir], { cwd: process.cwd(), timeout: 120_000 });
  } catch (e) {
    const stderr = (e as { stderr?: string }).stderr?.trim();
    throw new Error(`cannot create the embedded database in ${dir}${stderr ? `: ${stderr.split("\n").at(-1)}` : ""}`, { cause: e });
  }
}
