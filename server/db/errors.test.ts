import { describe, expect, it } from "vitest";
import { isDatabaseUnreachable } from "./errors.ts";

describe("isDatabaseUnreachable", () => {
  it("recognises the database's absence however it surfaces", () => {
    // Prisma over the pg adapter, as measured with a closed port: P1001 with the adapter's kind.
    expect(isDatabaseUnreachable({ code: "P1001", meta: { driverAdapterError: { cause: { kind: "DatabaseNotReachable" } } } })).toBe(true);
    expect(isDatabaseUnreachable({ code: "P2010", meta: { driverAdapterError: { cause: { kind: "ConnectionClosed" } } } })).toBe(true);
    // node-postgres's own errors: a PostgreSQL error (it has a severity), a closed connection.
    expect(isDatabaseUnreachable(Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01", severity: "FATAL" }))).toBe(true);
    const adapter = (cause: unknown) => Object.assign(new Error("DriverAdapterError"), { name: "DriverAdapterError", cause });
    expect(isDatabaseUnreachable(adapter(new Error("Connection terminated unexpectedly")))).toBe(true);
    expect(isDatabaseUnreachable(adapter(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })))).toBe(true);
  });

  it("leaves a wrong query, a conflict and a bug as what they are", () => {
    expect(isDatabaseUnreachable({ code: "P2002" })).toBe(false);
    expect(isDatabaseUnreachable(Object.assign(new Error("syntax error"), { code: "42601" }))).toBe(false);
    expect(isDatabaseUnreachable(new TypeError("cannot read properties of undefined"))).toBe(false);
    expect(isDatabaseUnreachable(undefined)).toBe(false);
    // A socket error of another request (an external provider, a webhook) is not the database's.
    expect(isDatabaseUnreachable(new Error("fetch failed", { cause: Object.assign(new Error("connect ECONNREFUSED 10.0.0.1:443"), { code: "ECONNREFUSED" }) }))).toBe(false);
    expect(isDatabaseUnreachable(new Error("Connection terminated unexpectedly"))).toBe(false);
    const loop: { cause?: unknown } = {};
    loop.cause = loop;
    expect(isDatabaseUnreachable(loop)).toBe(false);
  });
});
