import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "../errors/app-error.ts";
import { incomingOf } from "./next-transport.ts";
import { findBadText, jsonDepth, MAX_BODY_BYTES, parseJsonBody, queryObject, validate } from "./parse.ts";

const post = (body: BodyInit, type = "application/json") =>
  incomingOf(new Request("http://x/", { method: "POST", body, headers: { "content-type": type } }));

async function failure(p: Promise<unknown> | (() => unknown)): Promise<AppError> {
  try {
    await (typeof p === "function" ? p() : p);
  } catch (e) {
    return e as AppError;
  }
  throw new Error("expected a failure");
}

describe("request parsing", () => {
  it("parses JSON and refuses broken JSON with an input_error item", async () => {
    expect(await parseJsonBody(post('{"a":1}'))).toEqual({ a: 1 });
    const e = await failure(parseJsonBody(post('{"a":')));
    expect(e.code).toBe("request.malformed");
    expect(e.details.items?.[0]).toMatchObject({ error: "wrong_value", pos: "" });
  });

  it("refuses a body over the limit, whatever Content-Length says", async () => {
    const e = await failure(parseJsonBody(post(JSON.stringify({ a: "x".repeat(MAX_BODY_BYTES) }))));
    expect(e.code).toBe("request.too_large");
  });

  it("refuses invalid UTF-8 and a wrong content type", async () => {
    expect((await failure(parseJsonBody(post(new Uint8Array([0x7b, 0xff, 0x7d]))))).code).toBe("request.malformed");
    expect((await failure(parseJsonBody(post("a=1", "application/x-www-form-urlencoded")))).code).toBe("request.unsupported_media_type");
  });

  it("finds NUL characters and lone surrogates with their position", () => {
    expect(findBadText({ a: [{ b: "x\u0000" }] })).toEqual(["a", "0", "b"]);
    expect(findBadText({ a: "\ud800" })).toEqual(["a"]);
    expect(findBadText({ a: "😀 ü" })).toBeUndefined();
  });

  it("maps zod issues and unknown fields to items with pos", async () => {
    const schema = z.strictObject({ name: z.string(), n: z.number().optional() });
    const e = await failure(() => validate(schema, { name: 1, extra: true }));
    expect(e.details.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ pos: "name", error: "wrong_value" }),
        { error: "wrong_value", desc: "unknown field: extra", pos: "extra" },
      ]),
    );
  });

  it("refuses a repeated query parameter", async () => {
    const e = await failure(() => queryObject("?a=1&a=2"));
    expect(e.details.items?.[0]).toMatchObject({ pos: "a", desc: "parameter repeated" });
  });
});

describe("jsonDepth", () => {
  it("counts nesting outside strings only", () => {
    expect(jsonDepth('{"a":[1,{"b":[]}]}')).toBe(4);
    expect(jsonDepth('{"a":"[[[[{{{{\\"]]"}')).toBe(1);
    expect(jsonDepth("1")).toBe(0);
    expect(jsonDepth("[".repeat(30_000) + "]".repeat(30_000))).toBe(30_000);
  });
});
