import { randomBytes } from "node:crypto";
import type { TAttrValue } from "../attributes/attribute-values.ts";

/** An account as the services see it: `sub` is the id, `locked` a column, the rest in `attrs`. */
export type TAccount = {
  id: string;
  attrs: Record<string, TAttrValue>;
  locked: boolean;
  instanceId: string;
  roles: string[];
  /** Attributes an outside source keeps (a directory's mapped ones): only that source changes them. */
  ownedAttrs: string[];
  createdAt: Date;
  updatedAt: Date;
};

/** An account's attributes at one version: what a v1 version record shows. */
export type TAccountVersion = Pick<TAccount, "id" | "attrs" | "locked" | "instanceId" | "ownedAttrs">;

/**
 * The attributes nobody may change through this reader: the catalog's unmodifiable ones, those an
 * outside source keeps for the account, and those the reader's selection does not let it change.
 */
export function isUnmodifiable(def: { name: string; unmodifiable: boolean }, account: Pick<TAccount, "ownedAttrs">, change: Set<string> | null): boolean {
  return def.unmodifiable || account.ownedAttrs.includes(def.name) || (change !== null && !change.has(def.name));
}

/** How a person is named where an account is shown: given and family name, or null when it has neither. */
export function displayNameOf(a: Pick<TAccount, "attrs">): string | null {
  const parts = [a.attrs.given_name, a.attrs.family_name].filter((p): p is string => typeof p === "string" && p !== "");
  return parts.length ? parts.join(" ") : null;
}

/** Every catalog attribute of the account, `sub` and `locked` included. */
export function attributesOf(a: Pick<TAccount, "id" | "attrs" | "locked">): Record<string, TAttrValue> {
  return { ...a.attrs, sub: a.id, locked: a.locked };
}

/**
 * One attribute as attributesOf() shows it, without copying the others: a read picks a few of an
 * account's attributes on every request, and the copy cost more than the rest of the read's mapping.
 */
export function attributeOf(a: Pick<TAccount, "id" | "attrs" | "locked">, name: string): TAttrValue | undefined {
  if (name === "sub") return a.id;
  if (name === "locked") return a.locked;
  return Object.hasOwn(a.attrs, name) ? a.attrs[name] : undefined;
}

/**
 * A version id names the account as well as the version (`<base64url(sub)>.<random>`): a change that
 * names an old version can then be told apart from one that names no account at all, and answered
 * "changed since you read it" instead of "not found".
 */
export function newInstanceId(sub: string): string {
  return `${Buffer.from(sub, "utf8").toString("base64url")}.${randomBytes(12).toString("base64url")}`;
}

export function subjectOfInstance(instanceId: string): string | undefined {
  const m = /^([A-Za-z0-9_-]{1,700})\.[A-Za-z0-9_-]{16}$/.exec(instanceId);
  if (!m) return undefined;
  const sub = Buffer.from(m[1]!, "base64url").toString("utf8");
  return Buffer.from(sub, "utf8").toString("base64url") === m[1] ? sub : undefined;
}
