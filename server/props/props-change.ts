import { AppError, type TInputItem } from "../errors/app-error.ts";
import { badTextError, findBadText } from "../http/parse.ts";
import type { TPropsChange, TPropValue } from "./props.schemas.ts";

export type TPropsLimits = { maxCount: number; maxName: number; maxValue: number };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const chars = (s: string) => [...s].length;
const item = (pos: string, desc: string): TInputItem => ({ error: "wrong_value", desc, pos });

function nameProblem(name: string, limits: TPropsLimits): string | undefined {
  if (name.trim() === "") return "a property name must not be empty";
  if (chars(name) > limits.maxName) return `a property name may have at most ${limits.maxName} characters`;
  return undefined;
}

function valueProblem(value: unknown, limits: TPropsLimits): string | undefined {
  if (typeof value === "string") return chars(value) > limits.maxValue ? `a value may have at most ${limits.maxValue} characters` : undefined;
  if (typeof value === "number") return Number.isFinite(value) ? undefined : "a number must be finite";
  if (typeof value === "boolean") return undefined;
  return "a value must be a string, a number or a boolean";
}

function checkAdd(add: unknown, limits: TPropsLimits, items: TInputItem[]): [string, TPropValue][] {
  if (add === undefined) return [];
  if (!isObject(add)) {
    items.push(item("add", "add must be an object of property names to values"));
    return [];
  }
  const entries = Object.entries(add);
  if (entries.length > limits.maxCount) items.push(item("add", `an account may have at most ${limits.maxCount} properties`));
  for (const [name, value] of entries) {
    const problem = nameProblem(name, limits) ?? valueProblem(value, limits);
    if (problem) items.push(item(`add.${name}`, problem));
  }
  return entries as [string, TPropValue][];
}

function checkRemove(remove: unknown, limits: TPropsLimits, added: Set<string>, items: TInputItem[]): string[] {
  if (remove === undefined) return [];
  if (!Array.isArray(remove)) {
    items.push(item("remove", "remove must be an array of property names"));
    return [];
  }
  remove.forEach((name: unknown, i) => {
    if (typeof name !== "string") return items.push(item(`remove.${i}`, "a property name must be a string"));
    const problem = nameProblem(name, limits) ?? (added.has(name) ? "a property cannot be added and removed at once" : undefined);
    if (problem) items.push(item(`remove.${name}`, problem));
  });
  return remove as string[];
}

/**
 * Checks a POST …/props body against the configured limits and returns the change; every problem
 * is one input_error item whose pos names the property (`add.<name>`, `remove.<name>`).
 */
export function checkPropsChange(body: unknown, limits: TPropsLimits): TPropsChange {
  if (body === undefined) return { add: [], remove: [] };
  if (!isObject(body)) throw new AppError("request.invalid_values", { items: [item("", "the body must be an object with add and/or remove")] });
  const bad = findBadText(body);
  if (bad) throw badTextError(bad);
  const items = Object.keys(body)
    .filter((k) => k !== "add" && k !== "remove")
    .map((k) => item(k, `unknown field: ${k}`));
  const add = checkAdd(body.add, limits, items);
  const remove = checkRemove(body.remove, limits, new Set(add.map(([name]) => name)), items);
  if (items.length) throw new AppError("request.invalid_values", { items });
  return { add, remove };
}
