import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { CONFIG_REFERENCE_FILE, renderConfigReference } from "./config-reference.ts";
import { ZEnv } from "./config.ts";
import { ENV_DOCS, type TVariableDoc } from "./variables.ts";

describe("the configuration reference", () => {
  it("is the page the schema renders (run `npm run docs:reference` after changing a variable)", () => {
    expect(readFileSync(CONFIG_REFERENCE_FILE, "utf8"), `${CONFIG_REFERENCE_FILE} is stale: run npm run docs:reference`).toBe(renderConfigReference());
  });

  it("takes a default from the schema wherever the schema has one, never a second spelling of it", () => {
    const shape = ZEnv.shape as Record<string, z.ZodType>;
    for (const [name, doc] of Object.entries(ENV_DOCS) as [string, TVariableDoc][]) {
      const hasDefault = shape[name]!.def.type === "default";
      expect(hasDefault && doc.shown !== undefined, `${name} has a default in the schema and a shown one`).toBe(false);
      expect(doc.text.trim().length, name).toBeGreaterThan(3);
    }
  });

  it("prints the bounds and choices the server enforces", () => {
    const page = renderConfigReference();
    expect(page).toContain("| `IDP_ACCESS_TOKEN_TTL` | `3600` | 60–86400 | access token lifetime in seconds |");
    expect(page).toContain("| `IDP_LOG_LEVEL` | `info` | `debug`, `info`, `warn`, `error` |");
    expect(page).toContain("| `IDP_TLS_CERT`, `IDP_TLS_KEY` | unset |");
  });
});
