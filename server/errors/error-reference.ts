import { readFileSync } from "node:fs";
import path from "node:path";
import { ERROR_CODES, type TErrorCode } from "./codes.ts";

/** Where the rendered reference lives; `npm run docs:reference` writes it, a unit test compares. */
export const ERROR_REFERENCE_FILE = "docs/reference/errors.md";

/**
 * Each code's doc comment in codes.ts, the registry's own explanation of when it is answered: read
 * from the source, so the reference says what the code says and nothing is written twice.
 */
function commentsOf(source: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of source.matchAll(/\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*\n\s*"?([\w.]+)"?: \{/g)) {
    const text = m[1]!.split("\n").map((l) => l.replace(/^\s*\*\s?/, "").trim()).filter(Boolean).join(" ");
    out.set(m[2]!, text);
  }
  return out;
}

const cell = (s: string) => s.replace(/\|/g, "\\|");

export function renderErrorReference(root = process.cwd()): string {
  const comments = commentsOf(readFileSync(path.join(root, "server", "errors", "codes.ts"), "utf8"));
  const rows = (Object.entries(ERROR_CODES) as [TErrorCode, (typeof ERROR_CODES)[TErrorCode]][]).map(
    ([code, d]) => `| \`${code}\` | ${d.status} | \`${d.type}\` | \`${d.error}\` | ${cell(d.desc)} | ${d.oauth ? `\`${d.oauth}\`` : ""} | ${cell(comments.get(code) ?? "")} |`,
  );
  return [
    "# Error reference",
    "",
    "<!-- Generated from server/errors/codes.ts by `npm run docs:reference`; a unit test fails when this page is stale. -->",
    "",
    "Every error the service answers with. v3 operations answer `{\"type\", \"error\", \"desc\"}` (input errors list their items in",
    "`errors`); OAuth endpoints answer RFC 6749's `{\"error\", \"error_description\"}` with the `oauth` code; v1 and v2 operations",
    "and the registration operations keep their own shapes, built from the same entry. The internal code in the first column",
    "appears in the server's log lines, never in an answer.",
    "",
    "| code | status | type | error | desc | OAuth `error` | when |",
    "|---|---|---|---|---|---|---|",
    ...rows,
    "",
  ].join("\n");
}
