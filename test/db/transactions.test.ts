import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inTransaction } from "../../server/db/index.ts";
import { AppError } from "../../server/errors/app-error.ts";
import { installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

// The embedded database has one connection, so one transaction held open makes the next one wait.
describe("a transaction that cannot get a connection in time", () => {
  let t: TTestDatabase;
  beforeAll(async () => {
    t = await installTestDatabase("pglite");
  });
  afterAll(() => t.close());

  it("is answered 503 db.busy with Retry-After, not a 500, and the holder still commits", async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const holder = inTransaction(async (tx) => {
      await held;
      return tx.$queryRaw<{ one: number }[]>`SELECT 1 AS one`;
    });
    const waiter = inTransaction((tx) => tx.$queryRaw`SELECT 2`).then(
      () => undefined,
      (e: unknown) => e,
    );
    const refused = await waiter;
    release();
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe("db.busy");
    expect((refused as AppError).status).toBe(503);
    expect((refused as AppError).details.headers).toEqual({ "retry-after": "1" });
    expect(await holder).toEqual([{ one: 1 }]);
  }, 30_000);
});
