import type { z } from "zod";
import { AppError, type TInputItem } from "../errors/app-error.ts";
import type { THasHeaders, TIncoming } from "./exchange.ts";

/** Largest request body any operation accepts. */
export const MAX_BODY_BYTES = 64 * 1024;

const utf8 = new TextDecoder("utf-8", { fatal: true });

const tooLarge = () => new AppError("request.too_large", { desc: `body exceeds ${MAX_BODY_BYTES} bytes` });

/**
 * Reads the body up to MAX_BODY_BYTES and decodes it as strict UTF-8: the only reader of request
 * bodies. Reading stops as soon as the limit is passed, whatever Content-Length claimed.
 */
export async function readBodyText(req: Pick<TIncoming, "headers" | "readBody">): Promise<string> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const bytes = await req.readBody(MAX_BODY_BYTES);
  if (!bytes) throw tooLarge();
  return decodeUtf8(bytes);
}

function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new AppError("request.malformed", { items: [{ error: "wrong_value", desc: "body is not valid UTF-8", pos: "" }] });
  }
}

/** Media type without parameters, lower-cased: "application/json; charset=utf-8" → "application/json". */
export function mediaType(req: THasHeaders): string {
  return (req.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
}

// PostgreSQL text cannot hold NUL, and a lone surrogate cannot be encoded: both would fail deep in
// the database as a 500. Refuse them here, where the caller can be told which field it was.
// eslint-disable-next-line no-control-regex -- matching NUL is the point
const BAD_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// Text without NUL and without any surrogate, nearly all, needs no closer look: a plain character
// class is a fast scan, where the lookbehind above is tried at every position.
// eslint-disable-next-line no-control-regex -- matching NUL is the point
const SUSPECT = /[\u0000\uD800-\uDFFF]/;

/** Whether `text` may be stored: no NUL, no unpaired surrogate. */
export function isCleanText(text: string): boolean {
  return !SUSPECT.test(text) || !BAD_TEXT.test(text);
}

export function findBadText(value: unknown, pos: string[] = []): string[] | undefined {
  if (typeof value === "string") return isCleanText(value) ? undefined : pos;
  if (value === null || typeof value !== "object") return undefined;
  for (const [k, v] of Object.entries(value)) {
    if (!isCleanText(k)) return [...pos, k];
    const found = findBadText(v, [...pos, k]);
    if (found) return found;
  }
  return undefined;
}

export function badTextError(pos: string[]): AppError {
  return new AppError("request.invalid_values", {
    items: [{ error: "wrong_value", desc: "text contains a NUL character or an unpaired surrogate", pos: pos.join(".") }],
  });
}

export function zodItems(issues: z.core.$ZodIssue[]): TInputItem[] {
  return issues.map((i) => {
    const keys = i.code === "unrecognized_keys" ? i.keys : [];
    const pos = [...i.path.map(String), ...(keys.length === 1 ? keys : [])].join(".");
    const desc = i.code === "unrecognized_keys" ? `unknown field${keys.length > 1 ? "s" : ""}: ${keys.join(", ")}` : i.message;
    return { error: "wrong_value", desc, pos };
  });
}

/** Validates one part of the request against its schema; failures become 400 input_error items. */
export function validate<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const bad = findBadText(value);
  if (bad) throw badTextError(bad);
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new AppError("request.invalid_values", { items: zodItems(parsed.error.issues) });
  return parsed.data;
}

/** No operation takes documents nested deeper; deeper ones only serve to exhaust the stack. */
export const MAX_JSON_DEPTH = 32;

/** The deepest nesting of arrays and objects in JSON text, found in one pass without parsing. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) max = Math.max(max, ++depth);
    else if (c === 93 || c === 125) depth--;
  }
  return max;
}

export async function parseJsonBody(req: Pick<TIncoming, "headers" | "readBody">): Promise<unknown> {
  const text = await readBodyText(req);
  if (text.trim() === "") return undefined;
  if (mediaType(req) !== "application/json") {
    throw new AppError("request.unsupported_media_type", { desc: "send the body as application/json" });
  }
  if (jsonDepth(text) > MAX_JSON_DEPTH) {
    throw new AppError("request.malformed", { items: [{ error: "wrong_value", desc: `body is nested deeper than ${MAX_JSON_DEPTH} levels`, pos: "" }] });
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new AppError("request.malformed", { items: [{ error: "wrong_value", desc: `body is not valid JSON: ${(e as Error).message}`, pos: "" }] });
  }
}

/** Query parameters as an object; a repeated parameter is refused rather than silently picked. */
export function queryObject(search: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(search)) {
    if (k in out) throw new AppError("request.invalid_values", { items: [{ error: "wrong_value", desc: "parameter repeated", pos: k }] });
    out[k] = v;
  }
  return out;
}
