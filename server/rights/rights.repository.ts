import { getPrisma, type TTx } from "../db/index.ts";

// The only code that touches Prisma for rights: definitions and grants (one row per tag).

const DEFINITION = { name: true, descriptionRu: true, descriptionEn: true, subjectKinds: true, objectKinds: true, builtin: true } as const;
export type TDefinitionRow = { name: string; descriptionRu: string; descriptionEn: string; subjectKinds: string[]; objectKinds: string[]; builtin: boolean };
export type TDefinitionWrite = Omit<TDefinitionRow, "builtin"> & { builtin?: boolean };

export async function findDefinitions(names?: string[], tx?: TTx): Promise<TDefinitionRow[]> {
  const db = tx ?? (await getPrisma());
  return db.rightDefinition.findMany({ where: names ? { name: { in: names } } : {}, select: DEFINITION, orderBy: { name: "asc" } });
}

export async function upsertDefinition(d: TDefinitionWrite, tx?: TTx): Promise<void> {
  const db = tx ?? (await getPrisma());
  const { name, ...data } = d;
  await db.rightDefinition.upsert({ where: { name }, create: d, update: data, select: { name: true } });
}

/** Inserts the definitions that do not exist yet; how many it created. */
export async function insertMissingDefinitions(defs: TDefinitionWrite[], tx?: TTx): Promise<number> {
  const db = tx ?? (await getPrisma());
  return (await db.rightDefinition.createMany({ data: defs, skipDuplicates: true })).count;
}

/**
 * Locks the definition's row until the transaction ends (false when there is none): grants in flight
 * hold a key-share lock on it through their foreign key, so this waits for them to commit, and grants
 * that start later wait for this transaction; a count of its grants taken after it is exact.
 */
export async function lockDefinition(name: string, tx: TTx): Promise<boolean> {
  const rows = await tx.$queryRaw<{ name: string }[]>`SELECT name FROM right_definitions WHERE name = ${name} FOR UPDATE`;
  return rows.length > 0;
}

export async function deleteDefinition(name: string, tx?: TTx): Promise<boolean> {
  const db = tx ?? (await getPrisma());
  return (await db.rightDefinition.deleteMany({ where: { name } })).count > 0;
}

/** How many (subject, object) pairs hold each of the rights. */
export async function countGrants(names: string[], tx?: TTx): Promise<Map<string, number>> {
  const db = tx ?? (await getPrisma());
  const rows = await db.rightGrant.groupBy({
    by: ["rightName", "subjectType", "subjectId", "objectType", "objectId"],
    where: { rightName: { in: names } },
  });
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.rightName, (counts.get(r.rightName) ?? 0) + 1);
  return counts;
}

export type TParty = { type: string; id: string };
export type TGrantTarget = { subject: TParty; object: TParty & { ext: string } };
export type TGrantRow = { subjectType: string; subjectId: string; objectType: string; objectId: string; objectExt: string; rightName: string; tag: string };

/**
 * Whether the user, client or group `p` exists, holding a key-share lock on its row until the
 * transaction ends: one deleted meanwhile waits for the grant to commit, and then its trigger
 * removes the new rows too, so no grant outlives its party.
 */
export async function lockParty(p: TParty, tx: TTx): Promise<boolean> {
  const rows =
    p.type === "its"
      ? await tx.$queryRaw<{ id: string }[]>`SELECT id FROM clients WHERE id = ${p.id} FOR KEY SHARE`
      : p.type === "grps"
        ? await tx.$queryRaw<{ id: string }[]>`SELECT id FROM groups WHERE id = ${p.id} FOR KEY SHARE`
        : await tx.$queryRaw<{ id: string }[]>`SELECT id FROM users WHERE id = ${p.id} FOR KEY SHARE`;
  return rows.length > 0;
}

// The namespace (first key) of the rights' transaction-level advisory locks.
const SUBJECT_LOCKS = 0x72676874;

/**
 * Serializes the transactions that change one subject's grants (every grant row starts with its
 * subject): taken in sorted order, so two requests naming the same rows in opposite orders wait for
 * each other instead of deadlocking. Released at commit or rollback.
 */
export async function lockSubjects(subjects: TParty[], tx: TTx): Promise<void> {
  for (const key of [...new Set(subjects.map((p) => `${p.type}|${p.id}`))].sort()) {
    await tx.$queryRaw`SELECT 1 AS locked FROM pg_advisory_xact_lock(${SUBJECT_LOCKS}::int, hashtext(${key}))`;
  }
}

/** Adds the tags to each right; tags already there stay as they are. One statement: atomic. */
export async function insertGrants(t: TGrantTarget, rights: string[], tags: string[], tx: TTx): Promise<number> {
  const data = rights.flatMap((rightName) =>
    tags.map((tag) => ({ subjectType: t.subject.type, subjectId: t.subject.id, objectType: t.object.type, objectId: t.object.id, objectExt: t.object.ext, rightName, tag })),
  );
  return (await tx.rightGrant.createMany({ data, skipDuplicates: true })).count;
}

/** Removes just these tags of each right; a right whose last tag goes is gone. One statement: atomic. */
export async function deleteGrants(t: TGrantTarget, rights: string[], tags: string[], tx: TTx): Promise<number> {
  const where = { subjectType: t.subject.type, subjectId: t.subject.id, objectType: t.object.type, objectId: t.object.id };
  return (await tx.rightGrant.deleteMany({ where: { ...where, rightName: { in: rights }, tag: { in: tags } } })).count;
}

const GRANT = { subjectType: true, subjectId: true, objectType: true, objectId: true, objectExt: true, rightName: true, tag: true } as const;

/**
 * Every tag the party holds ("of": as subject) or that is held on it ("on": as object), in the order
 * of the index that serves the read (the primary key, or the object index).
 */
export async function findGrants(dir: "of" | "on", party: TParty): Promise<TGrantRow[]> {
  const prisma = await getPrisma();
  const [type, id, other] = dir === "of" ? (["subjectType", "subjectId", "object"] as const) : (["objectType", "objectId", "subject"] as const);
  return prisma.rightGrant.findMany({
    where: { [type]: party.type, [id]: party.id },
    select: GRANT,
    orderBy: [{ [`${other}Type`]: "asc" }, { [`${other}Id`]: "asc" }, { rightName: "asc" }, { tag: "asc" }],
  });
}

/**
 * Keyset page of the subjects holding rights on the object, after the subject `after` (type, id):
 * the subjects first, then their rows, so a page never splits a subject.
 */
export async function findGrantsOnPage(object: TParty, limit: number, after?: TParty): Promise<{ rows: TGrantRow[]; more: boolean }> {
  const prisma = await getPrisma();
  const where = { objectType: object.type, objectId: object.id };
  const keyset = after
    ? { OR: [{ subjectType: { gt: after.type } }, { subjectType: after.type, subjectId: { gt: after.id } }] }
    : {};
  const subjects = await prisma.rightGrant.findMany({
    where: { ...where, ...keyset },
    select: { subjectType: true, subjectId: true },
    distinct: ["subjectType", "subjectId"],
    orderBy: [{ subjectType: "asc" }, { subjectId: "asc" }],
    take: limit + 1,
  });
  const page = subjects.slice(0, limit);
  if (!page.length) return { rows: [], more: false };
  const rows = await prisma.rightGrant.findMany({
    where: { ...where, OR: page.map((s) => ({ subjectType: s.subjectType, subjectId: s.subjectId })) },
    select: GRANT,
    orderBy: [{ subjectType: "asc" }, { subjectId: "asc" }, { rightName: "asc" }, { tag: "asc" }],
  });
  return { rows, more: subjects.length > limit };
}

/**
 * Benchmark data: `count` grants of change_password (tag "seed") among the existing accounts, ten
 * objects per subject (the accounts that follow it in id order), subjects taken in id order. One
 * statement; returns how many rows it inserted.
 */
export async function insertSeedGrants(count: number): Promise<number> {
  const prisma = await getPrisma();
  const perSubject = 10;
  const inserted = await prisma.$executeRaw`
    WITH u AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS rn FROM users WHERE login IS NULL),
         n AS (SELECT count(*) AS c FROM u)
    INSERT INTO right_grants (subject_type, subject_id, object_type, object_id, right_name, tag)
    SELECT 'user', s.id, 'user', o.id, 'change_password', 'seed'
    FROM u s CROSS JOIN generate_series(1, ${perSubject}::int) AS k(k) CROSS JOIN n
    JOIN u o ON o.rn = (s.rn + k.k) % n.c
    WHERE s.rn * ${perSubject}::int + k.k <= ${count}::int AND n.c > 1
    ON CONFLICT DO NOTHING`;
  await prisma.$executeRaw`VACUUM (ANALYZE) right_grants`;
  return inserted;
}
