import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { eventTitle } from "../../components/event-titles.ts";
import { EVENT_TYPES } from "./event-types.ts";

const SERVER = path.resolve(import.meta.dirname, "..");

function sources(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== "generated") sources(full, out);
    } else if (e.name.endsWith(".ts") && !e.name.endsWith(".test.ts")) out.push(full);
  }
  return out;
}

/** Every event type written literally where an event is recorded: recordEvent("…"), a ternary of two, or a pending event's `type: "…"`. */
function recordedTypes(): string[] {
  const found = new Set<string>();
  for (const file of sources(SERVER)) {
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/recordEvent\(([^,]*),/g)) for (const t of m[1]!.matchAll(/"([a-z_]+\.[a-z_]+)"/g)) found.add(t[1]!);
    for (const m of text.matchAll(/type: "([a-z_]+\.[a-z_]+)", actor:/g)) found.add(m[1]!);
    for (const m of text.matchAll(/const type = [^;]*;/g)) for (const t of m[0].matchAll(/"([a-z_]+\.[a-z_]+)"/g)) found.add(t[1]!);
  }
  return [...found].sort();
}

describe("event types", () => {
  it("names every type the code records, so the console offers it and both languages title it", () => {
    const recorded = recordedTypes();
    expect(recorded.length).toBeGreaterThan(60);
    expect(recorded.filter((t) => !(EVENT_TYPES as readonly string[]).includes(t))).toEqual([]);
  });

  it("titles every type in both languages, and shows an unknown type as it is", () => {
    for (const t of EVENT_TYPES) {
      expect(eventTitle(t, "en"), t).not.toBe(t);
      expect(eventTitle(t, "ru"), t).not.toBe(t);
      expect(eventTitle(t, "ru"), t).not.toBe(eventTitle(t, "en"));
    }
    expect(eventTitle("vendor.something_new", "en")).toBe("vendor.something_new");
    expect(eventTitle("user.recovery_requested", "ru")).toBe("Запрошен код восстановления пароля");
  });
});
