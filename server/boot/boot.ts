import { startInactivitySweep } from "../account-state/inactivity-sweep.ts";
import { startBranding } from "../branding/branding.service.ts";
import { startChangeBus } from "../cache/change-bus.ts";
import { getConfig } from "../config/config.ts";
import { resolveSecretKeys } from "../crypto/secret-key.ts";
import { getDatabase } from "../db/index.ts";
import { migrate, withAdvisoryLock } from "../db/migrator.ts";
import { importFile } from "../import/import.service.ts";
import { describeError, log } from "../log/logger.ts";
import { startMaintenance } from "../maintenance/maintenance.ts";
import { startDirectorySchedule } from "../directories/directory-sync.service.ts";
import { answerMetricsCollection, inClusterWorker, runsOncePerStartSteps } from "../cluster/primary-link.ts";
import { localMetricsAsJson } from "../metrics/metrics.service.ts";
import { startDeliveryWorker } from "../messaging/delivery-worker.ts";
import { ensureSigningKey } from "../oauth/keys/signing-keys.service.ts";
import { bootstrapAdmin } from "../users/admin.service.ts";
import { ensureBuiltinClients } from "../clients/builtin-clients.ts";
import { ensureBuiltinRights } from "../rights/definitions.service.ts";
import { AppError } from "../errors/app-error.ts";
import { registerShutdown } from "./shutdown.ts";
import { changeAuthModes } from "../auth-modes/auth-modes.service.ts";

/**
 * Everything that must hold before the first request: configuration parsed, database open and
 * migrated, the change bus listening, a signing key, the administrator, the built-in clients of
 * console and portal, the IDP_IMPORT document applied, the pages' branding read, and the outbox worker.
 */
export async function boot(): Promise<void> {
  const config = getConfig();
  resolveSecretKeys(config);
  const db = await getDatabase();
  const applied = await migrate(db.sql);
  if (applied.length) log.info("migrations applied", { migrations: applied });
  // Before anything is cached: from here on, no other process's change goes unnoticed.
  await startChangeBus();
  // Instances starting together on a fresh database would each create a signing key, an
  // administrator and the built-in clients; they take turns instead, and the later ones find what
  // the first created. IDP_IMPORT is applied once per start: by the first of several workers only.
  await withAdvisoryLock(db.sql, FIRST_START_LOCK_KEY, () => firstStartSteps(config));
  // After the import (which may bring one) and before the first page: the pages' look.
  await startBranding();
  // After the import and before the first request: what a previous run left pending goes out now.
  await startDeliveryWorker();
  startMaintenance();
  startDirectorySchedule();
  startInactivitySweep();
  registerShutdown();
  // One of several workers (IDP_WORKERS): a scrape answered by any of them sums all (server/serve/cluster.mjs).
  if (inClusterWorker()) answerMetricsCollection(localMetricsAsJson);
  log.info("ready", { issuer: config.issuer, database: config.database.kind });
}

const FIRST_START_LOCK_KEY = 7_246_917_319;

async function firstStartSteps(config: ReturnType<typeof getConfig>): Promise<void> {
  await ensureSigningKey();
  const admin = await bootstrapAdmin({ password: config.adminPassword, embedded: config.database.kind === "embedded" });
  if (admin.generatedPassword && admin.id) {
    // Printed once, on first start only, so the person who started the server can sign in; it has
    // been in a terminal and maybe a log, so the first sign-in asks for a new one.
    await changeAuthModes(admin.id, { needPasswordChange: true }, {}, { by: "bootstrap" });
    process.stdout.write(`\n  Administrator created. Sign in at ${config.issuer}/console as "admin" with password: ${admin.generatedPassword}\n  (you will be asked to choose a new one)\n\n`);
  }
  const builtin = await ensureBuiltinClients();
  if (builtin.created.length + builtin.updated.length) log.info("built-in clients", { created: builtin.created, updated: builtin.updated });
  const rights = await ensureBuiltinRights();
  if (rights) log.info("built-in rights created", { count: rights });
  if (config.importFile && runsOncePerStartSteps()) {
    // Named after the variable, like every other refusal to start.
    const summary = await importFile(config.importFile, {}).catch((e: unknown) => {
      throw new Error(`IDP_IMPORT: ${config.importFile} is refused: ${startFailure(e)}`);
    });
    log.info("import applied", { file: config.importFile, ...summary });
  }
}

/** A one-line reason for a failed start: the variable, the file or the database that is wrong. */
export function startFailure(e: unknown): string {
  if (e instanceof AppError && e.details.items) {
    return e.details.items.map((i) => `${i.pos} ${i.desc}`).join("; ");
  }
  return e instanceof Error ? e.message : String(e);
}

export async function bootOrExit(): Promise<void> {
  try {
    await boot();
  } catch (e) {
    log.debug("start failed", describeError(e));
    process.stderr.write(`idp: cannot start: ${startFailure(e)}\n`);
    process.exit(1);
  }
}
