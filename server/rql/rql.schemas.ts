import { z } from "zod";
import { RQL_LIMITS } from "./rql-syntax.ts";
import { RQL_MAX_LIMIT } from "./rql-parser.ts";

/** The `rql` query parameter as every search operation documents it (docs/guides/groups-and-rql.md says the same at length). */
export const RQL_PARAM_DESCRIPTION = [
  "Resource Query Language filter. Top-level terms are joined by `&` (send it as %26 inside the parameter) or `,` and all must hold.",
  "Operators: `and(t,…)`, `or(t,…)`, `eq(field,value)`, `ne`, `lt`, `le`, `gt`, `ge`, `like(field,pattern)` (`*` is the only wildcard; case-insensitive),",
  `\`in(field,(v1,v2,…))\`, \`limit(count[,offset])\` (count 1–${RQL_MAX_LIMIT}), \`sort(+field,-field,…)\`.`,
  "Values are percent-decoded per argument (write `,` `(` `)` `&` as %2C %28 %29 %26); an untyped value is read by the field's type;",
  "`string:`, `number:`, `boolean:`, `date:` (YYYY-MM-DD) force a type; untyped `null` means a missing attribute.",
  `Limits: ${RQL_LIMITS.maxLength} characters, ${RQL_LIMITS.maxDepth} nesting levels, ${RQL_LIMITS.maxTerms} terms, ${RQL_LIMITS.maxListValues} values per list.`,
  "A malformed query is 400 input_error with `pos: rql` and `params.position`, the 0-based offset of the problem.",
].join(" ");

/**
 * Put under the name `rql` in an operation's query schema; the document then refers to the shared
 * components.parameters.Rql (server/api/openapi.ts). parseRql gives the positioned errors, so no length check here.
 */
export const ZRqlQueryParam = z
  .string()
  .optional()
  .meta({
    id: "Rql",
    description: "RQL query",
    param: { name: "rql", in: "query", description: RQL_PARAM_DESCRIPTION, example: "eq(profile,orgs)&like(name,acme*)&sort(+name)&limit(20,0)" },
  });
