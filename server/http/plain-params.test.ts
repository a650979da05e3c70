import { describe, expect, it } from "vitest";
import { z } from "zod";
import { operations } from "../api/catalog.ts";
import { findBadText } from "./parse.ts";
import { plainParamsCheck } from "./plain-params.ts";

// What each parameter may be sent as: ordinary, at and past the bounds, bad text, missing.
const VALUES = ["a", "current", "4f9c2d3e-1b7a-4c5d-9e8f-0a1b2c3d4e5f", "", "x".repeat(256), "x".repeat(257), "x".repeat(1025), "a\u0000b", "\uD800", "\uDC00x", "😀", "%2F", undefined];

/** zod's verdict with the bad-text rule, as validate() applies them. */
function full(schema: z.ZodType, raw: Record<string, string | undefined>) {
  if (findBadText(raw)) return undefined;
  const parsed = schema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}

describe("plain path parameters", () => {
  const withParams = operations().filter((op) => op.params);

  it("covers the usual params schemas of the catalog", () => {
    const plain = withParams.filter((op) => plainParamsCheck(op.params!));
    // Most operations take bounded strings; a schema with a format, a transform or an optional field is left to zod.
    expect(plain.length).toBeGreaterThan(withParams.length / 2);
  });

  it("accepts exactly what zod accepts, with the same value, for every operation", () => {
    for (const op of withParams) {
      const check = plainParamsCheck(op.params!);
      if (!check) continue;
      const names = Object.keys((op.params as z.ZodObject).shape);
      for (const v of VALUES) {
        for (const name of names) {
          const raw: Record<string, string | undefined> = Object.fromEntries(names.map((n) => [n, "ok-value"]));
          raw[name] = v;
          const quick = check(raw as Record<string, string>);
          const verdict = full(op.params!, raw);
          // The quick check may leave a valid value to zod, never pass an invalid one.
          if (quick !== undefined) expect(quick, `${op.method} ${op.path} ${name}=${JSON.stringify(v)}`).toEqual(verdict);
          else if (verdict !== undefined) expect.fail(`${op.method} ${op.path}: ${name}=${JSON.stringify(v)} is valid, the quick check declined it`);
        }
      }
    }
  });

  it("drops parameters the schema does not name, as zod's object does", () => {
    const check = plainParamsCheck(z.object({ id: z.string().min(1).max(8) }))!;
    expect(check({ id: "abc", other: "x" })).toEqual({ id: "abc" });
  });

  it("leaves other schemas to zod", () => {
    expect(plainParamsCheck(z.object({ id: z.string().regex(/^\d+$/) }))).toBeUndefined();
    expect(plainParamsCheck(z.object({ id: z.string().optional() }))).toBeUndefined();
    expect(plainParamsCheck(z.object({ id: z.string().trim() }))).toBeUndefined();
    expect(plainParamsCheck(z.strictObject({ id: z.string() }))).toBeUndefined();
    expect(plainParamsCheck(z.object({ id: z.coerce.string() }))).toBeUndefined();
    expect(plainParamsCheck(z.object({ n: z.number() }))).toBeUndefined();
    expect(plainParamsCheck(z.object({ id: z.string() }).refine((p) => p.id !== "x"))).toBeUndefined();
  });
});
