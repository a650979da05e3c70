import { getPrisma } from "../db/index.ts";

/*
 * Benchmark data (`npm run idp -- seed-groups <n>`): groups seed-0000001 … in two profiles, every
 * row written by a few set-based statements, so 10,000 groups take about a second. Running it
 * again adds only the groups still missing.
 */

const PROFILES = [
  {
    name: "seed_orgs",
    attributes: [
      { name: "name", type: "string", required: true },
      { name: "region", type: "string", required: false },
      { name: "size", type: "number", required: false },
      { name: "active", type: "boolean", required: false },
      { name: "tags", type: "string_list", required: false },
    ],
  },
  {
    name: "seed_teams",
    attributes: [
      { name: "name", type: "string", required: true },
      { name: "region", type: "string", required: false },
      { name: "level", type: "number", required: false },
    ],
  },
];

/** Seeds `count` groups, members taken in turn from the existing accounts (three a group); how many groups it added. */
export async function insertSeedGroups(count: number): Promise<number> {
  const prisma = await getPrisma();
  for (const p of PROFILES) {
    await prisma.$executeRaw`INSERT INTO group_profiles (name, description, attributes)
      VALUES (${p.name}, CAST(${JSON.stringify({ ru: "Тестовые группы", en: "Benchmark groups" })} AS jsonb), CAST(${JSON.stringify(p.attributes)} AS jsonb))
      ON CONFLICT (name) DO NOTHING`;
  }
  // Even rows are orgs, odd rows teams; 50 regions, 20 tags, every third org active.
  const added = await prisma.$executeRaw`
    INSERT INTO groups (id, profile, instance_id, attrs)
    SELECT 'seed-' || lpad(i::text, 7, '0'),
           CASE WHEN i % 2 = 0 THEN 'seed_orgs' ELSE 'seed_teams' END,
           'seed.' || md5(i::text),
           CASE WHEN i % 2 = 0
             THEN jsonb_build_object('name', 'Org ' || i, 'region', 'r' || (i % 50), 'size', i % 1000, 'active', i % 3 = 0, 'tags', jsonb_build_array('t' || (i % 20)))
             ELSE jsonb_build_object('name', 'Team ' || i, 'region', 'r' || (i % 50), 'level', i % 7)
           END
    FROM generate_series(1, ${count}::int) AS s(i)
    ON CONFLICT DO NOTHING`;
  await prisma.$executeRaw`
    WITH u AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS rn FROM users WHERE login IS NULL),
         n AS (SELECT count(*) AS c FROM u),
         g AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS rn FROM groups WHERE id LIKE 'seed-%')
    INSERT INTO group_members (group_id, user_id)
    SELECT g.id, u.id FROM g CROSS JOIN generate_series(0, 2) AS k(k) CROSS JOIN n JOIN u ON u.rn = (g.rn * 3 + k.k) % n.c
    WHERE n.c > 0
    ON CONFLICT DO NOTHING`;
  await prisma.$executeRaw`VACUUM (ANALYZE) groups`;
  await prisma.$executeRaw`VACUUM (ANALYZE) group_members`;
  return added;
}
