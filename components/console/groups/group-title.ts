/** Attributes that name a group, in the order they are preferred, whatever its profile calls the rest. */
const TITLE_ATTRIBUTES = ["title", "name", "display_name", "displayName", "label"];

/** What the group is called by its own attributes, or undefined when none of them names it. */
export function groupTitleOf(attrs: Record<string, unknown>): string | undefined {
  for (const name of TITLE_ATTRIBUTES) {
    const value = attrs[name];
    if (typeof value === "string" && value.trim()) return value.trim();
  }
  return undefined;
}
