import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../../server/errors/app-error.ts";
import { createGroup, replaceGroup } from "../../server/groups/groups.service.ts";
import { importDocument } from "../../server/import/import.service.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

// Unique attributes are compared by the database: numbers as numerics, text through lower() on both
// sides. JavaScript's String(1e21) is "1e+21" and PostgreSQL's text of that jsonb number is
// "1000000000000000000000", so comparing JS text against ->> text let duplicates through.
const refused = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => (e instanceof AppError ? { code: e.code, pos: e.details.items?.map((i) => i.pos) } : e),
  );

describe.each(DB_KINDS)("unique group attributes on %s", (kind) => {
  let t: TTestDatabase;
  beforeAll(async () => {
    t = await installTestDatabase(kind);
    await importDocument(
      {
        groupProfiles: [
          {
            name: "uq",
            description: { ru: "У", en: "U" },
            attributes: [
              { name: "code", type: "number", unique: true },
              { name: "title", type: "string", unique: true },
            ],
          },
        ],
      },
      {},
    );
  });
  afterAll(async () => t?.close());

  it("refuses a number equal to another group's, whatever its notation", async () => {
    await createGroup("uq", "uq-a", { code: 1e21, title: "Alpha" }, {});
    expect(await refused(createGroup("uq", "uq-b", { code: 1e21 }, {}))).toEqual({ code: "request.invalid_values", pos: ["code"] });
    await createGroup("uq", "uq-c", { code: 1e-7 }, {});
    expect(await refused(createGroup("uq", "uq-d", { code: 0.0000001 }, {}))).toEqual({ code: "request.invalid_values", pos: ["code"] });
    // Different numbers stay apart.
    await createGroup("uq", "uq-e", { code: 1e22 }, {});
  });

  it("refuses text equal to another group's in any case, and lets a group keep its own value", async () => {
    expect(await refused(createGroup("uq", "uq-f", { title: "ALPHA" }, {}))).toEqual({ code: "request.invalid_values", pos: ["title"] });
    expect(await refused(createGroup("uq", "uq-g", { title: "альфа" }, {}))).toBeUndefined();
    expect(await refused(createGroup("uq", "uq-h", { title: "АЛЬФА" }, {}))).toEqual({ code: "request.invalid_values", pos: ["title"] });
    const kept = await replaceGroup("uq", "uq-a", { code: 1e21, title: "alpha" }, undefined, {});
    expect(kept).toMatchObject({ id: "uq-a", attrs: { code: 1e21, title: "alpha" } });
  });
});
