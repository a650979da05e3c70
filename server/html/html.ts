/** Markup that is already safe: only `html` and `htmlAttr`-free constructions produce it. */
export type THtml = { readonly markup: string };

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

function render(value: unknown): string {
  if (value === undefined || value === null || value === false) return "";
  if (Array.isArray(value)) return value.map(render).join("");
  if (typeof value === "object" && "markup" in value) return (value as THtml).markup;
  return escapeHtml(String(value));
}

/**
 * A template whose interpolations are escaped (text and attribute values alike, since quotes are
 * escaped too), unless they are THtml themselves. Nothing user-supplied can become markup.
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): THtml {
  return { markup: strings.reduce((out, s, i) => out + s + (i < values.length ? render(values[i]) : ""), "") };
}
