import { z } from "zod";
import { sameJson } from "../import/canonical-json.ts";
import { IMPORTABLE_HASH, hashSecret, verifySecret } from "../crypto/password-hash.ts";
import type { TTx } from "../db/index.ts";
import { AppError } from "../errors/app-error.ts";
import { attributesOf } from "./account.ts";
import { applyPlan, planChanges } from "./account-changes.ts";
import type { TCatalog } from "../attributes/attributes.service.ts";
import { findAccount, findPasswordHash, updateCredentials } from "./users.repository.ts";
import { createAccount, writeAttributes } from "./users.service.ts";

/** An account of the import document, keyed by its sub so that importing again changes nothing. */
export const ZUserImport = z
  .strictObject({
    sub: z.string().min(1).max(128),
    /** Catalog attributes, phone and e-mail as {value, vrf}. */
    attributes: z.record(z.string(), z.unknown()).default({}),
    roles: z.array(z.string().regex(/^[a-z][a-z0-9_-]{0,63}$/)).max(20).default([]),
    password: z.string().min(1).max(1024).optional(),
    /** An existing argon2id or bcrypt hash; replaced by today's argon2id at the next successful sign-in. */
    passwordHash: z.string().regex(IMPORTABLE_HASH, "must be an argon2id or bcrypt hash").optional(),
  })
  .refine((u) => !(u.password && u.passwordHash), { message: "give password or passwordHash, not both", path: ["passwordHash"] });
export type TUserImport = z.infer<typeof ZUserImport>;

export type TUserImportResult = { created: string[]; updated: string[]; unchanged: string[] };

/** Hashing is slow, so it happens before the transaction; an unchanged password keeps its hash. */
export async function prepareUserImport(users: TUserImport[]): Promise<(TUserImport & { hash?: string })[]> {
  return Promise.all(
    users.map(async (u) => {
      if (u.passwordHash) return { ...u, hash: u.passwordHash };
      if (!u.password) return u;
      const stored = await findPasswordHash(u.sub);
      return { ...u, hash: stored && (await verifySecret(stored, u.password)) ? stored : await hashSecret(u.password) };
    }),
  );
}

const same = sameJson;

/** Writes the document's accounts; `catalog` is the one this transaction sees (after its attributes). */
export async function applyUserImport(users: (TUserImport & { hash?: string })[], catalog: TCatalog, tx: TTx): Promise<TUserImportResult> {
  const result: TUserImportResult = { created: [], updated: [], unchanged: [] };
  for (const [i, u] of users.entries()) {
    const at = (e: unknown) => {
      if (e instanceof AppError && e.details.items) {
        throw new AppError("import.invalid_document", { items: e.details.items.map((it) => ({ ...it, pos: `$.users[${i}].attributes.${it.pos}` })) });
      }
      throw e;
    };
    const existing = await findAccount(u.sub, tx);
    if (!existing) {
      await createAccount({ sub: u.sub, attrs: u.attributes, passwordHash: u.hash ?? null, roles: u.roles }, { contactFlag: "vrf", allowed: null, catalog }, tx).catch(at);
      result.created.push(u.sub);
      continue;
    }
    const { plan, items } = planChanges(catalog, { ...u.attributes, sub: u.sub }, { contactFlag: "vrf", confirmUnverified: false, allowed: null, creating: true });
    if (items.length) at(new AppError("request.invalid_values", { items }));
    const attrs = applyPlan({ sub: u.sub, locked: false }, plan);
    const changed = !same(attrs, attributesOf(existing)) || !same(u.roles, existing.roles);
    const newHash = u.hash !== undefined && u.hash !== (await findPasswordHash(u.sub, tx));
    if (!changed && !newHash) {
      result.unchanged.push(u.sub);
      continue;
    }
    if (changed) await writeAttributes(existing, attrs, tx, Object.keys(attrs), catalog).catch(at);
    await updateCredentials(u.sub, { roles: u.roles, ...(u.hash !== undefined ? { passwordHash: u.hash } : {}) }, tx);
    result.updated.push(u.sub);
  }
  return result;
}
