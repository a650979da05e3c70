import { randomInt, randomUUID } from "node:crypto";
import { getCatalog, type TCatalog } from "../attributes/attributes.service.ts";
import { recordEvent } from "../audit/audit.service.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { AppError } from "../errors/app-error.ts";
import { publishAccountChange } from "./account-cache.ts";
import { newInstanceId } from "./account.ts";
import { applyPlan, indexRows, planChanges, splitColumns } from "./account-changes.ts";
import { countIndexValuesBetween, insertAccountBatch, vacuumAccounts, type TSeedAccount, type TSeedIndexRow } from "./seed.repository.ts";
import { MAX_SERIAL, phoneRange, syntheticPerson } from "./synthetic-people.ts";

/** Most accounts one run creates: phones come from one free block of 79XXXXXXXXX numbers. */
export const MAX_SEED = 10_000_000;
const BATCH = 2_000;
const BLOCK_TRIES = 5;

/** A block of phone serials no account holds yet, so the seeded phones (and e-mails) are unique. */
async function freeSerialBlock(count: number): Promise<number> {
  for (let i = 0; i < BLOCK_TRIES; i++) {
    const first = randomInt(0, MAX_SERIAL - count + 2);
    const { lo, hi } = phoneRange(first, count);
    if ((await countIndexValuesBetween("phone_number", lo, hi)) === 0) return first;
  }
  throw new Error(`no free block of ${count} phone numbers found; seed fewer accounts`);
}

/**
 * One synthetic account, checked and indexed exactly as createAccount does it (catalog validation,
 * normalisation, index rows), so a seeded account is indistinguishable from a registered one.
 * Attributes the catalog lacks are left out; a required one the generator cannot fill stops the run.
 */
function seedAccount(catalog: TCatalog, serial: number): { account: TSeedAccount; rows: TSeedIndexRow[] } {
  const p = syntheticPerson(serial);
  const id = randomUUID();
  const input: Record<string, unknown> = {
    sub: id,
    family_name: p.family_name,
    given_name: p.given_name,
    middle_name: p.middle_name,
    phone_number: { value: p.phone, vrf: true },
    email: { value: p.email, vrf: true },
  };
  for (const name of Object.keys(input)) if (!catalog.byName.has(name)) delete input[name];
  const { plan, items } = planChanges(catalog, input, { contactFlag: "vrf", confirmUnverified: false, allowed: null, creating: true });
  if (items.length) throw new AppError("request.invalid_values", { items });
  const attrs = applyPlan({}, plan);
  const { doc, locked } = splitColumns(attrs);
  const rows = indexRows(catalog, attrs).map((r) => ({ ...r, userId: id }));
  return { account: { id, attrs: doc, locked, instanceId: newInstanceId(id) }, rows };
}

/**
 * Loads `count` synthetic accounts for load tests, in batches of a few thousand rows per statement.
 * Each batch commits on its own; a unique value that turns out taken (an e-mail an existing account
 * happens to hold) stops the run with what was created so far.
 */
export async function seedAccounts(count: number): Promise<{ created: number }> {
  if (!Number.isInteger(count) || count < 1 || count > MAX_SEED) throw new Error(`the number of accounts must be between 1 and ${MAX_SEED}`);
  const catalog = await getCatalog();
  const first = await freeSerialBlock(count);
  let created = 0;
  try {
    while (created < count) {
      const batch = Array.from({ length: Math.min(BATCH, count - created) }, (_, i) => seedAccount(catalog, first + created + i));
      await insertAccountBatch(
        batch.map((b) => b.account),
        batch.flatMap((b) => b.rows),
      );
      created += batch.length;
    }
  } catch (e) {
    if (!isUniqueViolation(e)) throw e;
    throw new Error(`a generated unique value is already held by an account; ${created} accounts were created, run again for the rest`, { cause: e });
  } finally {
    if (created > 0) await finishSeed(created);
  }
  return { created };
}

async function finishSeed(created: number): Promise<void> {
  await vacuumAccounts();
  // Running servers may hold "no such account" for a sub; drop every account they cache.
  await publishAccountChange();
  await recordEvent("users.seeded", {}, { count: created });
}
