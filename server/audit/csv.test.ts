import { describe, expect, it } from "vitest";
import { csvField, csvRecord } from "./csv.ts";

describe("csvField (RFC 4180, with formula injection neutralised)", () => {
  it.each([
    ["plain", "plain"],
    ["", ""],
    [null, ""],
    [undefined, ""],
    ["a,b", '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ["two\nlines", '"two\nlines"'],
    ["cr\rlf", '"cr\rlf"'],
    ["Иванов", "Иванов"],
  ])("%j → %j", (value, out) => {
    expect(csvField(value)).toBe(out);
  });

  it.each([
    ["=HYPERLINK(\"http://evil\")", "\"'=HYPERLINK(\"\"http://evil\"\")\""],
    ["+1+2", "'+1+2"],
    ["-2+3", "'-2+3"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\t=1", "'\t=1"],
    ["=1,2", "\"'=1,2\""],
  ])("puts an apostrophe before a formula: %j → %j", (value, out) => {
    expect(csvField(value)).toBe(out);
  });

  it("leaves a sign that is not the first character alone", () => {
    expect(csvField("a=b")).toBe("a=b");
    expect(csvField(" =1")).toBe(" =1");
  });

  it("ends each record with CRLF", () => {
    expect(csvRecord(["a", null, "b,c"])).toBe('a,,"b,c"\r\n');
  });
});
