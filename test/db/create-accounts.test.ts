import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { inTransaction } from "../../server/db/index.ts";
import { importDocument } from "../../server/import/import.service.ts";
import { createAccounts } from "../../server/users/users.service.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

// Many accounts at once (a directory's synchronisation): each checked as one would be, refusals in place.

describe.each(DB_KINDS)("createAccounts on %s", (kind) => {
  let t: TTestDatabase;
  beforeEach(async () => {
    t = await installTestDatabase(kind);
  });
  afterEach(async () => t.close());

  it("writes the good ones, and refuses in place a taken sub, a value the catalog refuses, and an address two of them or another account have", async () => {
    await importDocument({ users: [{ sub: "held", attributes: { email: { value: "held@example.org", vrf: true } } }] }, {});
    const outcomes = await inTransaction((tx) =>
      createAccounts(
        [
          { sub: "anna", attrs: { given_name: "Anna", email: { value: "anna@example.org", vrf: true } } },
          { sub: "held", attrs: { given_name: "Taken sub" } },
          { sub: "bad", attrs: { no_such_attribute: "x" } },
          { sub: "twin1", attrs: { email: { value: "twin@example.org", vrf: true } } },
          { sub: "twin2", attrs: { email: { value: "twin@example.org", vrf: true } } },
          { sub: "thief", attrs: { email: { value: "held@example.org", vrf: true } } },
          { attrs: { given_name: "Generated" } },
        ],
        { contactFlag: "vrf", allowed: null },
        tx,
      ),
    );
    expect(outcomes.map((o) => (o.ok ? `ok:${o.account.id.length > 20 ? "generated" : o.account.id}` : o.items.map((i) => i.pos).join(",")))).toEqual(["ok:anna", "sub", "no_such_attribute", "email", "email", "email", "ok:generated"]);
    const anna = await t.db.prisma.user.findUniqueOrThrow({ where: { id: "anna" }, select: { attrs: true, passwordHash: true } });
    expect(anna).toEqual({ attrs: { given_name: "Anna", email: { value: "anna@example.org", vrf: true } }, passwordHash: null });
    // Its address is indexed: found by it, unique from now on.
    expect(await t.db.prisma.userAttrValue.findMany({ where: { userId: "anna", attr: "email" }, select: { value: true, isUnique: true } })).toEqual([{ value: "anna@example.org", isUnique: true }]);
    expect(await t.db.prisma.user.count()).toBe(3);
  });
});
