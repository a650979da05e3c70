import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { subjectOfInstance } from "../../server/users/account.ts";
import { createUser, listUsers } from "../../server/users/users-console.service.ts";
import { readAccount } from "../../server/users/users.service.ts";
import { searchUsersV1 } from "../../server/users/users-v1.service.ts";
import { seedAccounts } from "../../server/users/seed.service.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

const CYRILLIC_NAME = /^[А-ЯЁ][а-яё]+$/;
const uids = (records: { attrs: Record<string, unknown> }[]) => records.map((r) => r.attrs.uid);

describe.each(DB_KINDS)("seed-users on %s", (kind) => {
  let t: TTestDatabase;
  beforeAll(async () => {
    t = await installTestDatabase(kind);
  });
  afterAll(async () => t?.close());

  it("loads accounts that read, search and hold their unique values like registered ones", async () => {
    expect(await seedAccounts(40)).toEqual({ created: 40 });
    const { items, total } = await listUsers({ limit: 100 });
    expect(total).toBe(40);

    const account = await readAccount(items[7]!.sub);
    const attrs = account.attrs as Record<string, any>;
    expect(attrs).toEqual({
      family_name: expect.stringMatching(CYRILLIC_NAME),
      given_name: expect.stringMatching(CYRILLIC_NAME),
      middle_name: expect.stringMatching(CYRILLIC_NAME),
      phone_number: { value: expect.stringMatching(/^79\d{9}$/), vrf: true },
      email: { value: expect.stringMatching(/^[a-z]+\.[a-z]+\.\d{9}@[a-z]+\.[a-z]+$/), vrf: true },
    });
    expect(subjectOfInstance(account.instanceId)).toBe(account.id);

    // A v1 client without attribute selections sees every attribute.
    const v1Client = { requestId: "seed-test", actor: { mode: "basic", clientId: "seed-test-client" } } as const;
    const prefix = [...attrs.family_name].slice(0, 3).join("");
    expect(uids(await searchUsersV1(v1Client, `surname=${prefix}*`, 1000))).toContain(account.id);
    expect(uids(await searchUsersV1(v1Client, `personal_mail=${attrs.email.value.toUpperCase()}`, 10))).toEqual([account.id]);
    expect(uids(await searchUsersV1(v1Client, `personal_mobile=${attrs.phone_number.value}`, 10))).toEqual([account.id]);

    const phones = new Set(items.map((i) => i.phone));
    const emails = new Set(items.map((i) => i.email));
    expect([phones.size, emails.size]).toEqual([40, 40]);
    const uniqueRows = await t.db.prisma.userAttrValue.groupBy({ by: ["attr"], where: { isUnique: true }, _count: true, orderBy: { attr: "asc" } });
    expect(uniqueRows.map((r) => [r.attr, r._count])).toEqual([["email", 40], ["phone_number", 40], ["sub", 40]]);
  });

  it("refuses a new account with a seeded e-mail or phone, and a second run adds accounts beside the first", async () => {
    const { items } = await listUsers({ limit: 1 });
    const taken = items[0]!;
    for (const attributes of [{ email: { value: taken.email, vrf: true } }, { phone_number: { value: taken.phone, vrf: true } }]) {
      await expect(createUser({ attributes }, {})).rejects.toMatchObject({
        code: "request.invalid_values",
        details: { items: [expect.objectContaining({ error: "contact_use_violation", pos: Object.keys(attributes)[0] })] },
      });
    }
    await seedAccounts(25);
    expect((await listUsers({ limit: 1 })).total).toBe(65);
  });

  it("refuses a count it cannot seed", async () => {
    for (const n of [0, -1, 1.5, 10_000_001]) await expect(seedAccounts(n)).rejects.toThrow(/between 1 and 10000000/);
  });
});
