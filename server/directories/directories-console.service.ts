import { AppError } from "../errors/app-error.ts";
import { findAllDirectories, findDirectory, type TDirectory } from "./directories.repository.ts";
import { latestSyncRuns, syncDirectory } from "./directory-sync.service.ts";
import type { TEventActor } from "../audit/audit.service.ts";

/* The console's face of directories: what each is (never its bind password), its latest runs, "sync now". */

export type TDirectoryView = Omit<TDirectory, "bindPassword" | "caCert"> & { hasCaCert: boolean };

const toView = ({ bindPassword: _, caCert, ...d }: TDirectory): TDirectoryView => ({ ...d, hasCaCert: caCert !== null });

export async function listDirectories() {
  const out = [];
  for (const d of await findAllDirectories()) out.push({ ...toView(d), lastRun: (await latestSyncRuns(d.id, 1))[0] ?? null });
  return out;
}

export async function directoryRuns(id: string) {
  if (!(await findDirectory(id))) throw new AppError("directory.not_found");
  return latestSyncRuns(id, 20);
}

/** Starts a run in the background; the console follows it through directoryRuns. */
export async function syncNow(id: string, full: boolean, actor: TEventActor) {
  return syncDirectory(id, full ? "full" : undefined, actor);
}
