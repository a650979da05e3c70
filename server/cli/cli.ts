// Commands that run outside the web server: `npm run idp -- <command>` (see scripts/idp.mjs).
import { lockInactiveAccounts, unlockAccount } from "../account-state/account-state.service.ts";
import { startFailure } from "../boot/boot.ts";
import { drainChanges } from "../cache/change-bus.ts";
import { getConfig } from "../config/config.ts";
import { getDatabase } from "../db/index.ts";
import { migrate } from "../db/migrator.ts";
import { importFile } from "../import/import.service.ts";
import { seedAccounts } from "../users/seed.service.ts";
import { ensureBuiltinRights } from "../rights/definitions.service.ts";
import { insertSeedGrants } from "../rights/grants.service.ts";
import { insertSeedGroups } from "../groups/groups.service.ts";
import { rotateSecretKey } from "../key-rotation/resealing.service.ts";
import { rotateSigningKey } from "../oauth/keys/signing-keys.service.ts";
import { rotateSamlSigningKey } from "../saml/keys/saml-keys.service.ts";
import { syncDirectory, syncRunReport } from "../directories/directory-sync.service.ts";

const USAGE = "usage: npm run idp -- start | dev | build | check-config | migrate | import <file.json> | seed-users <count> | seed-grants <count> | seed-groups <count> | lock-inactive | unlock <sub> | rotate-signing-key [--publish-ahead <seconds>] [--compromised] | rotate-saml-key [--publish-ahead <seconds>] [--compromised] | rotate-secret-key | sync-directory <id> [--full]";

/** `--publish-ahead 600` and `--compromised` of the key rotations; anything else is a usage error. */
function rotationOptions(args: string[], maxAheadS = 86_400): { publishAheadS?: number; compromised: boolean } {
  const options: { publishAheadS?: number; compromised: boolean } = { compromised: false };
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--compromised") options.compromised = true;
    else if (args[i] === "--publish-ahead" && /^\d{1,8}$/.test(args[i + 1] ?? "") && Number(args[i + 1]) <= maxAheadS) options.publishAheadS = Number(args[++i]);
    else throw new Error(USAGE);
  }
  return options;
}

async function withDatabase<T>(fn: () => Promise<T>): Promise<T> {
  const db = await getDatabase();
  try {
    await migrate(db.sql);
    return await fn();
  } finally {
    // What this command changed must reach the running servers' caches before it exits.
    if (!(await drainChanges())) console.error("warning: running servers were not told of every change; they see it within five minutes, when their cached entries expire");
    await db.close();
  }
}

async function main(argv: string[]): Promise<void> {
  const [command, arg] = argv;
  switch (command) {
    case "check-config":
      getConfig();
      return;
    case "migrate": {
      const db = await getDatabase();
      try {
        const applied = await migrate(db.sql);
        console.log(applied.length ? `applied: ${applied.join(", ")}` : "database is up to date");
      } finally {
        await db.close();
      }
      return;
    }
    case "import": {
      if (!arg) throw new Error(USAGE);
      const summary = await withDatabase(() => importFile(arg, {}));
      for (const [section, r] of Object.entries(summary)) {
        console.log(`${section}: ${r.created.length} created, ${r.updated.length} updated, ${r.unchanged.length} unchanged`);
      }
      return;
    }
    case "seed-users": {
      if (!arg || !/^\d+$/.test(arg)) throw new Error(USAGE);
      const { created, seconds } = await withDatabase(async () => {
        const started = performance.now();
        return { ...(await seedAccounts(Number(arg))), seconds: (performance.now() - started) / 1000 };
      });
      console.log(`seeded ${created} accounts in ${seconds.toFixed(1)} s (${Math.round(created / seconds)} accounts/s)`);
      return;
    }
    case "seed-grants": {
      if (!arg || !/^\d+$/.test(arg)) throw new Error(USAGE);
      // The right must be defined: a database no server has started on yet has no built-in rights.
      const created = await withDatabase(async () => (await ensureBuiltinRights(), insertSeedGrants(Number(arg))));
      console.log(`seeded ${created} grants of change_password among the existing accounts`);
      return;
    }
    case "seed-groups": {
      if (!arg || !/^\d+$/.test(arg)) throw new Error(USAGE);
      const created = await withDatabase(() => insertSeedGroups(Number(arg)));
      console.log(`seeded ${created} groups in the profiles seed_orgs and seed_teams, members from the existing accounts`);
      return;
    }
    case "lock-inactive": {
      const result = await withDatabase(() => lockInactiveAccounts());
      if (result.off) console.log("the inactivity lock is off (IDP_INACTIVITY_LOCK_DAYS=0)");
      else if (result.skipped) console.log("another sweep is running; it locks what is due");
      else console.log(`locked ${result.locked} inactive account${result.locked === 1 ? "" : "s"}`);
      return;
    }
    case "unlock": {
      if (!arg) throw new Error(USAGE);
      // From the command line: the one way back in for an administrator whose own account was locked.
      await withDatabase(() => unlockAccount(arg, {}, { by: "cli" }));
      console.log(`unlocked ${arg}`);
      return;
    }
    case "rotate-signing-key": {
      const options = rotationOptions(argv.slice(1));
      const r = await withDatabase(() => rotateSigningKey(options, { by: "cli" }));
      console.log(`new signing key ${r.kid}: published now, signs from ${r.signsFrom.toISOString()}`);
      // The JWKS is cached for 300 s: a resource server may meet a token before it fetched the new key.
      if (options.publishAheadS !== undefined && options.publishAheadS < 300 && !options.compromised) console.log("warning: published for less than the JWKS's max-age (300 s)");
      if (options.compromised) console.log(`withdrawn at once: ${r.retired.join(", ") || "none"}; every token they signed is refused`);
      else console.log(`retiring ${r.retired.join(", ") || "none"}: they verify their tokens until those expire`);
      return;
    }
    case "rotate-saml-key": {
      // As IDP_SAML_KEY_PUBLISH_AHEAD allows: up to 90 days.
      const options = rotationOptions(argv.slice(1), 90 * 86_400);
      const r = await withDatabase(() => rotateSamlSigningKey(options, { by: "cli" }));
      console.log(`new SAML signing key ${r.kid}: in the SAML metadata now, signs from ${r.signsFrom.toISOString()}`);
      if (options.compromised) console.log(`withdrawn at once: ${r.retired.join(", ") || "none"}; service providers that pinned them refuse what we send until they take the new certificate`);
      else console.log(`retiring ${r.retired.join(", ") || "none"}: service providers that pinned a certificate need the new one before then`);
      return;
    }
    case "sync-directory": {
      const rest = argv.slice(2);
      if (!arg || rest.some((a) => a !== "--full")) throw new Error(USAGE);
      const { kind, status, run } = await withDatabase(async () => {
        const started = await syncDirectory(arg, rest.includes("--full") ? "full" : undefined, { clientId: "cli" }, { wait: true });
        return { ...started, run: await syncRunReport(started.runId) };
      });
      console.log(`${kind} synchronisation of ${arg}: ${status}`);
      if (run) console.log(`${run.seen} entries read in ${run.searches} searches; ${run.created} created, ${run.updated} updated, ${run.locked} locked, ${run.unlocked} unlocked, ${run.deleted} deleted, ${run.failed} failed${run.error ? `; ${run.error}` : ""}`);
      for (const f of run?.failures ?? []) console.log(`  ${f.dn}: ${f.reason}`);
      if (status !== "done") process.exitCode = 1;
      return;
    }
    case "rotate-secret-key": {
      if (arg) throw new Error(USAGE);
      const r = await withDatabase(() => rotateSecretKey());
      // Only the columns that had something to do: most installations use a few of the ten.
      for (const c of r.reports.filter((c) => c.resealed + c.changedMeanwhile + c.unreadable + c.remaining > 0)) {
        console.log(`${c.column}: ${c.resealed} re-sealed, ${c.changedMeanwhile} changed meanwhile, ${c.unreadable} unreadable, ${c.remaining} left under another key`);
      }
      const left = r.reports.reduce((n, c) => n + c.remaining, 0);
      if (r.generated) console.log(left ? `new key ${r.keyId} in the data dir's secret.key; ${left} values still need an old key, which stays in the file: run again` : `new key ${r.keyId} in the data dir's secret.key; the old key is gone`);
      else console.log(left ? `${left} values still need a key of IDP_SECRET_KEY_PREVIOUS: keep it, and run again once every instance uses the new IDP_SECRET_KEY` : `everything is sealed under ${r.keyId}; IDP_SECRET_KEY_PREVIOUS can be removed`);
      return;
    }
    default:
      throw new Error(USAGE);
  }
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`idp: ${startFailure(e)}\n`);
    process.exit(1);
  },
);
