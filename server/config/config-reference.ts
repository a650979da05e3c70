import type { z } from "zod";
import { ZEnv } from "./config.ts";
import { ENV_DOCS, PROCESS_ENV_DOCS, type TVariableDoc } from "./variables.ts";

/** Where the rendered reference lives; `npm run docs:reference` writes it, a unit test compares. */
export const CONFIG_REFERENCE_FILE = "docs/reference/configuration.md";

type TFacts = { fallback?: unknown; allowed?: string };

/** The default and the allowed values as the schema holds them (ZInt's bounds are its metadata). */
function factsOf(schema: z.ZodType): TFacts {
  const facts: TFacts = {};
  const range = schema.meta()?.range as [number, number] | undefined;
  if (range) facts.allowed = `${range[0]}–${range[1]}`;
  let inner = schema;
  for (;;) {
    const def = inner.def as { type: string; innerType?: z.ZodType; defaultValue?: unknown; entries?: Record<string, string> };
    if (def.type === "default") facts.fallback = def.defaultValue;
    if (def.type === "enum") facts.allowed = Object.values(def.entries ?? {}).map((v) => `\`${v}\``).join(", ");
    if ((def.type === "default" || def.type === "optional") && def.innerType) inner = def.innerType;
    else return facts;
  }
}

const cell = (s: string) => s.replace(/\|/g, "\\|");
const names = (key: string) => key.split(", ").map((n) => `\`${n}\``).join(", ");

function row(key: string, doc: TVariableDoc, facts: TFacts): string {
  const fallback = doc.shown ?? (facts.fallback === undefined ? "unset" : `\`${String(facts.fallback)}\``);
  return `| ${names(key)} | ${cell(fallback)} | ${cell(facts.allowed ?? "")} | ${cell(doc.text)} |`;
}

/** The whole page, from the schema and the descriptions beside it. */
export function renderConfigReference(): string {
  const shape = ZEnv.shape as Record<string, z.ZodType>;
  const docs = ENV_DOCS as Record<string, TVariableDoc>;
  const head = "| variable | default | allowed | meaning |\n|---|---|---|---|";
  return [
    "# Configuration reference",
    "",
    "<!-- Generated from server/config/config.ts and server/config/variables.ts by `npm run docs:reference`; a unit test fails when this page is stale. -->",
    "",
    "Environment variables only. Each is checked when the server starts, and a wrong one stops the start with one line naming it",
    "(`idp: IDP_ACCESS_TOKEN_TTL: must be a whole number between 60 and 86400 (got \"soon\")`). Empty values count as unset.",
    "How to put them together for a deployment: [configuration](../operations/configuration.md).",
    "",
    head,
    ...Object.keys(shape).map((name) => row(name, docs[name]!, factsOf(shape[name]!))),
    "",
    "## Read by the launcher and the server process",
    "",
    "`npm start` and the production server (server/serve/) read these before the rest of the configuration, and check them themselves.",
    "",
    head,
    ...Object.entries(PROCESS_ENV_DOCS).map(([name, doc]) => row(name, doc, {})),
    "",
  ].join("\n");
}
