// Lists are edited as text. A scope cannot hold whitespace or a comma (RFC 6749 scope-token), so any
// of those separates scopes. A URI may hold commas (RFC 3986 sub-delims), so between URIs a comma
// separates only before whitespace, the end, or the next scheme. A certificate CN may hold both, so
// CNs are one per line.

export type TListKind = "scopes" | "uris" | "lines";

const SEPARATORS: Record<TListKind, RegExp> = {
  scopes: /[\s,]+/,
  uris: /\s+|,(?=\s|$)|,(?=[a-z][a-z0-9+.-]*:\/\/)/i,
  lines: /\r?\n/,
};

export function parseList(text: string, kind: TListKind): string[] {
  return text
    .split(SEPARATORS[kind])
    .map((p) => p.trim())
    .filter(Boolean);
}

export function formatList(items: string[], kind: TListKind): string {
  return items.join(kind === "scopes" ? " " : "\n");
}
