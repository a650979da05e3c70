import { AppError } from "./app-error.ts";

/**
 * The body shapes of the contract's Errors section. Each endpoint family declares one; the same
 * AppError renders in any of them.
 * - v3: {type, error, desc[, params] | errors[]}
 * - v2: {errors:[{code, desc, params}]}
 * - registration: {errors:[{errMsg, field}], context:""}
 * - oauth: RFC 6749 {error, error_description}
 */
export type TErrorShape = "v3" | "v2" | "registration" | "oauth";

function v3Body(e: AppError, requestId: string): Record<string, unknown> {
  const { def, details } = e;
  const desc = details.desc ?? def.desc;
  if (def.type === "input_error") {
    const items = details.items ?? [{ error: "wrong_value", desc, pos: "" }];
    if (details.flat && items.length === 1) return { type: "input_error", error: items[0]!.error, desc: items[0]!.desc, pos: items[0]!.pos, params: items[0]!.params ?? {} };
    return {
      type: "input_error",
      error: def.error,
      errors: items.map((i) => ({ type: "input_error", error: i.error, desc: i.desc, pos: i.pos, params: i.params ?? {} })),
    };
  }
  if (def.type === "process_error") return { type: def.type, error: def.error, desc, params: details.params ?? {} };
  if (def.type === "internal_error") return { type: def.type, error: def.error, desc, requestId };
  return { type: def.type, error: def.error, desc };
}

function errorBody(e: AppError, shape: TErrorShape, requestId: string): Record<string, unknown> {
  const desc = e.details.desc ?? e.def.desc;
  switch (shape) {
    case "oauth":
      return { error: e.def.oauth ?? (e.status >= 500 ? "server_error" : "invalid_request"), error_description: desc };
    case "v2": {
      const items = e.details.items ?? [{ error: e.def.error, desc, pos: "", params: e.details.params }];
      return { errors: items.map((i) => ({ code: i.error, desc: i.desc, params: { ...i.params, ...(i.pos ? { field: i.pos } : {}) } })) };
    }
    case "registration": {
      const items = e.details.items ?? [{ error: e.def.error, desc, pos: "" }];
      return { errors: items.map((i) => ({ errMsg: i.desc, field: i.pos })), context: "" };
    }
    default:
      return v3Body(e, requestId);
  }
}

function wwwAuthenticate(e: AppError, shape: TErrorShape): string | undefined {
  if (e.status !== 401) return undefined;
  // On OAuth endpoints a 401 is about the client's credentials, except at the userinfo endpoint, whose bearer token fails with auth.*.
  if ((shape === "oauth" && !e.code.startsWith("auth.")) || e.code === "auth.basic_invalid" || e.code === "auth.basic_not_allowed") return 'Basic realm="idp", charset="UTF-8"';
  if (e.code === "auth.token_missing") return 'Bearer realm="idp"';
  const desc = (e.details.desc ?? e.def.desc).replace(/["\\]/g, "");
  if (e.code === "auth.scope_missing") {
    const scope = Array.isArray(e.details.params?.scopes) ? e.details.params.scopes.join(" ") : "";
    return `Bearer realm="idp", error="insufficient_scope", error_description="${desc}", scope="${scope}"`;
  }
  return `Bearer realm="idp", error="invalid_token", error_description="${desc}"`;
}

/** An error answer as any transport writes it: status, headers (lower-case names) and the JSON body. */
export type TRenderedError = { status: number; headers: Record<string, string>; body: string };

/**
 * Renders an AppError in the endpoint family's shape. No Response here: the request layer
 * (server/http/respond.ts) makes one, so the error registry depends on nothing else.
 */
export function renderError(e: AppError, shape: TErrorShape, requestId: string): TRenderedError {
  const headers: Record<string, string> = { "content-type": "application/json", "cache-control": "no-store" };
  const challenge = wwwAuthenticate(e, shape);
  if (challenge) headers["www-authenticate"] = challenge;
  if (shape === "oauth") headers.pragma = "no-cache";
  for (const [k, v] of Object.entries(e.details.headers ?? {})) headers[k.toLowerCase()] = v;
  return { status: e.status, headers, body: JSON.stringify(errorBody(e, shape, requestId)) };
}
