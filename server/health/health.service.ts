import { getDatabase } from "../db/index.ts";
import { directoriesHealth } from "../directories/directory-health.service.ts";

const PROBE_TIMEOUT_MS = 2_000;

type TReadiness = { ready: true; directories?: Record<string, "ok" | "degraded"> } | { ready: false; reason: string };

/** Ready when the database answers a trivial query within the probe timeout; with the directories' state when there are any. */
export async function checkReadiness(): Promise<TReadiness> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS);
  });
  try {
    const db = await getDatabase();
    await Promise.race([db.sql.session((s) => s.query("SELECT 1")), timeout]);
  } catch (e) {
    return { ready: false, reason: `database unreachable: ${(e as Error).message}` };
  } finally {
    clearTimeout(timer);
  }
  // A directory that does not answer is reported, never a reason to take the service out of rotation.
  const directories = await directoriesHealth();
  return Object.keys(directories).length ? { ready: true, directories } : { ready: true };
}
