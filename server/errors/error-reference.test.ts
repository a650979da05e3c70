import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "./codes.ts";
import { ERROR_REFERENCE_FILE, renderErrorReference } from "./error-reference.ts";

describe("the error reference", () => {
  it("is the page the registry renders (run `npm run docs:reference` after changing a code)", () => {
    expect(readFileSync(ERROR_REFERENCE_FILE, "utf8"), `${ERROR_REFERENCE_FILE} is stale: run npm run docs:reference`).toBe(renderErrorReference());
  });

  it("has a row, with its explanation, for every code", () => {
    const rows = renderErrorReference().split("\n").filter((l) => l.startsWith("| `"));
    expect(rows).toHaveLength(Object.keys(ERROR_CODES).length);
    for (const r of rows) expect(r.endsWith("|  |"), `${r.slice(0, 60)}… has no explanation in codes.ts`).toBe(false);
  });
});
