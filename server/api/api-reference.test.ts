import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { operations } from "./catalog.ts";
import { API_REFERENCE_FILE, renderApiReference } from "./api-reference.ts";

describe("the API overview", () => {
  it("is the page the catalog renders (run `npm run docs:reference` after changing an operation)", () => {
    expect(readFileSync(API_REFERENCE_FILE, "utf8"), `${API_REFERENCE_FILE} is stale: run npm run docs:reference`).toBe(renderApiReference());
  });

  it("lists every operation of the catalog once, with who may call it", () => {
    const page = renderApiReference();
    for (const op of operations()) expect(page.split(`| \`${op.method} ${op.path}\``).length - 1, `${op.method} ${op.path}`).toBe(1);
    expect(page).toContain("| `GET /api/v3/users/{subjectId}` | ");
    expect(page).toMatch(/\| `POST \/oauth\/te` \| [^|]+\| no token \|/);
  });
});
