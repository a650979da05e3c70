import { getDatabase } from "../db/index.ts";

const PROBE_TIMEOUT_MS = 2_000;

/** Ready when the database answers a trivial query within the probe timeout. */
export async function checkReadiness(): Promise<{ ready: true } | { ready: false; reason: string }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS);
  });
  try {
    const db = await getDatabase();
    await Promise.race([db.sql.session((s) => s.query("SELECT 1")), timeout]);
    return { ready: true };
  } catch (e) {
    return { ready: false, reason: `database unreachable: ${(e as Error).message}` };
  } finally {
    clearTimeout(timer);
  }
}
