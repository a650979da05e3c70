import { findAllDirectories } from "./directories.repository.ts";
import { asService, DirectoryUnavailable } from "./ldap-client.ts";

/*
 * Whether each enabled directory answers, for /health/ready: a directory that does not is
 * "degraded" (its people cannot sign in), but the service is ready, since everyone else can. A
 * probe is a bind as the service and a base search of the base DN, at most once per PROBE_TTL_MS
 * per process, so frequent readiness checks do not become load on the directory; what a sign-in
 * found out meanwhile counts as a probe.
 */

const PROBE_TTL_MS = 30_000;
const probes = new Map<string, { at: number; state: Promise<"ok" | "degraded"> }>();

async function probe(d: Awaited<ReturnType<typeof findAllDirectories>>[number]): Promise<"ok" | "degraded"> {
  try {
    await asService(d, (client) => client.search(d.baseDn, { scope: "base", attributes: ["1.1"] }));
    return "ok";
  } catch (e) {
    if (e instanceof DirectoryUnavailable) return "degraded";
    throw e;
  }
}

/** What a sign-in just found out about a directory. */
export function noteDirectoryState(id: string, state: "ok" | "degraded", now = Date.now()): void {
  probes.set(id, { at: now, state: Promise.resolve(state) });
}

export async function directoriesHealth(now = Date.now()): Promise<Record<string, "ok" | "degraded">> {
  const out: Record<string, "ok" | "degraded"> = {};
  for (const d of await findAllDirectories()) {
    if (!d.enabled) continue;
    let p = probes.get(d.id);
    if (!p || now - p.at > PROBE_TTL_MS) {
      p = { at: now, state: probe(d) };
      probes.set(d.id, p);
    }
    out[d.id] = await p.state;
  }
  return out;
}
