import { describe, expect, it } from "vitest";
import { type TOperation } from "./define-route.ts";
import { defineRoute } from "../caller/define-route.ts";
import type { TIncoming } from "./exchange.ts";

const incoming = (over: Partial<TIncoming> = {}): TIncoming => ({
  method: "GET",
  path: "/t",
  search: "",
  headers: { get: () => null },
  readBody: async () => new Uint8Array(0),
  ...over,
});
const op: TOperation = { method: "GET", path: "/t", summary: "t", tags: ["t"], auth: { kind: "none" }, response: { status: 200, description: "t" }, errors: [] };

describe("the request core", () => {
  it("awaits whatever can be awaited, a Prisma-like thenable included, and sends a plain value at once", async () => {
    const thenable = defineRoute(op, () => ({ then: (resolve: (v: unknown) => void) => resolve({ rows: 2 }) }) as unknown as Promise<{ rows: number }>);
    expect(await thenable.run(incoming(), {})).toMatchObject({ status: 200, body: '{"rows":2}' });
    const plain = defineRoute(op, () => ({ rows: 3 }));
    expect(await plain.run(incoming(), {})).toMatchObject({ status: 200, body: '{"rows":3}', headers: { "content-type": "application/json", "cache-control": "no-store" } });
  });

  it("refuses a query parameter the operation does not take, and keeps a sane caller's request id", async () => {
    const route = defineRoute(op, () => ({}));
    const answer = await route.run(incoming({ search: "?x=1", headers: { get: (n) => (n === "x-request-id" ? "caller-id-123" : null) } }), {});
    expect(answer.status).toBe(400);
    expect(answer.headers["x-request-id"]).toBe("caller-id-123");
    expect(JSON.parse(answer.body as string)).toMatchObject({ type: "input_error", errors: [{ pos: "x" }] });
  });
});
