import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { STRING_BODY } from "./server-handoff.mjs";
import { stringResponse } from "./string-response.ts";

const bodyOf = (r: Response) => (r as unknown as Record<symbol, string | null | undefined>)[STRING_BODY];

describe("stringResponse: a Response whose string body the fast path writes whole", () => {
  it("is a Response with the status, headers and body a Response built from the same arguments has", async () => {
    const made = stringResponse('{"a":"ä"}', { status: 201, headers: { "content-type": "application/json", "x-one": "1" } });
    const plain = new Response('{"a":"ä"}', { status: 201, headers: { "content-type": "application/json", "x-one": "1" } });
    expect(made).toBeInstanceOf(Response);
    expect([made.status, made.ok, made.statusText, [...made.headers]]).toEqual([plain.status, plain.ok, plain.statusText, [...plain.headers]]);
    expect(bodyOf(made)).toBe('{"a":"ä"}');
    expect(await made.json()).toEqual({ a: "ä" });
    expect(made.bodyUsed).toBe(true);
    // Read once as a stream, the string is no longer what is sent: the stream is.
    expect(bodyOf(made)).toBeUndefined();
    await expect(made.text()).rejects.toThrow(TypeError);
  });

  it("gives a string body Response's default content type, and a null body none", () => {
    expect(stringResponse("hi").headers.get("content-type")).toBe(new Response("hi").headers.get("content-type"));
    const empty = stringResponse(null, { status: 204 });
    expect([empty.headers.has("content-type"), bodyOf(empty), empty.body]).toEqual([false, null, null]);
  });

  it("refuses what Response refuses: a status outside 200-599, a body on a null-body status", () => {
    expect(() => stringResponse("x", { status: 204 })).toThrow(TypeError);
    expect(() => new Response("x", { status: 204 })).toThrow(TypeError);
    expect(() => stringResponse(null, { status: 600 })).toThrow(RangeError);
    expect(() => stringResponse(null, { status: 199 })).toThrow(RangeError);
  });

  it("copies the headers it is given, as Response does", () => {
    const given = new Headers({ a: "1" });
    const r = stringResponse("x", { headers: given });
    given.set("a", "2");
    expect(r.headers.get("a")).toBe("1");
  });

  it("keeps header changes made before and after the real Response is built", async () => {
    const r = stringResponse("body", { headers: new Headers({ a: "1" }) });
    r.headers.set("b", "2");
    const copy = r.clone();
    r.headers.set("c", "3");
    expect(Object.fromEntries(copy.headers)).toMatchObject({ a: "1", b: "2" });
    expect(Object.fromEntries(r.headers)).toMatchObject({ a: "1", b: "2", c: "3" });
    expect([await copy.text(), await r.text()]).toEqual(["body", "body"]);
  });

  it("serves the way Next consumes a handler's answer: its body stream and `new Response(body, res)`", async () => {
    const r = stringResponse("ü".repeat(3), { status: 202, headers: { "x-k": "v" } });
    const again = new Response(r.body, r);
    expect([again.status, again.headers.get("x-k"), await again.text()]).toEqual([202, "v", "üüü"]);
    expect(inspect(stringResponse("x"))).toContain("status: 200");
  });
});
