import { z } from "zod";
import { derivedOnce } from "../cache/derived-once.ts";
import type { TMaybePromise } from "../cache/maybe-promise.ts";
import { AppError } from "../errors/app-error.ts";
import type { TErrorCode } from "../errors/codes.ts";
import type { TErrorShape } from "../errors/render.ts";
import { authenticate, type TAuthSpec } from "./authenticate.ts";
import { parseJsonBody, queryObject, validate } from "./parse.ts";
import { plainParamsCheck } from "./plain-params.ts";
import { requestIdOf, type TRequestContext } from "./request-context.ts";
import { respondWithError, finish } from "./respond.ts";
import { PATH_PARAMS, REQUEST_TARGET } from "./server-handoff.mjs";
import { stringResponse } from "./string-response.ts";

export type THttpMethod = "GET" | "POST" | "PUT" | "DELETE" | "PATCH";

/** Everything about one operation: how it is called, who may call it, what it returns and how it fails. */
export type TOperation<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType> = {
  method: THttpMethod;
  /** OpenAPI path below the context path, e.g. "/api/v3/users/{subjectId}". */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  /** v1/v2 operations that have a v3/v4 successor: `Deprecation` header and flag in the document. */
  deprecated?: boolean;
  auth: TAuthSpec;
  /** Which of the contract's error body shapes this endpoint family uses (default "v3"). */
  errorShape?: TErrorShape;
  params?: P;
  query?: Q;
  /** JSON body, parsed and validated before the handler runs. */
  body?: B;
  /** Form body, documented only: protocol endpoints parse it themselves because RFC rules differ. */
  form?: z.ZodType;
  /** JSON body, documented only: the handler parses it, because its errors follow an RFC of their own (RFC 7591). */
  jsonBody?: z.ZodType;
  response: { status: number; description: string; schema?: z.ZodType; headers?: Record<string, string> };
  /** Further answers that are not errors of the registry (e.g. a confirmation's wrong-code reply), for the document. */
  otherResponses?: { status: number; description: string; schema?: z.ZodType }[];
  /**
   * Path parameters whose app/ folder is named otherwise than the document names them: Next allows
   * one name per folder level, the contract names `/users/{subjectId}` and `/users/{instanceId}`.
   */
  paramNames?: Record<string, string>;
  /** Path parameters that are secrets (a QR sign-in code): the log line shows `{name}` in their place. */
  secretParams?: string[];
  /** Error codes the operation can answer with, for the document. Auth errors are added from `auth`. */
  errors: TErrorCode[];
  /** Cache-Control of a successful answer; API data is personal, so "no-store" unless said otherwise. */
  cacheControl?: string;
  /** Browser-facing protocol endpoints answer a failure with a page, not with JSON. */
  renderError?: (req: Request, e: unknown, requestId: string) => Response;
  /**
   * The handler calls what needs Next's request scope (next-auth's getServerSession reads
   * next/headers): the production server's fast path leaves the operation to Next (server/serve/).
   */
  nextRequestScope?: true;
};

export type THandlerInput<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> = {
  ctx: TRequestContext;
  params: z.infer<P>;
  query: z.infer<Q>;
  body: z.infer<B>;
  request: Request;
};

// Operations without a query schema take no query parameters: an unknown one is refused (400).
const EMPTY_QUERY = z.strictObject({});

type TRawParams = Record<string, string | string[] | undefined>;
type TNextContext = { params: Promise<TRawParams>; [PATH_PARAMS]?: TRawParams };
export type TRouteHandler = ((req: Request, context: TNextContext) => Promise<Response>) & { operation: TOperation };

/** Path parameters under the document's names, a catch-all's segments joined by "/". */
function pathParams(raw: TRawParams, names: Record<string, string> = {}): Record<string, string> {
  const params: Record<string, string> = {};
  for (const k of Object.keys(raw)) {
    const v = raw[k];
    params[names[k] ?? k] = Array.isArray(v) ? v.join("/") : (v ?? "");
  }
  return params;
}

/**
 * The one way to expose an operation. Authenticates, checks scopes, parses and validates params,
 * query and body, runs the handler, maps thrown AppErrors to the endpoint's error shape, logs one
 * line, and registers the operation for the OpenAPI document.
 */
export function defineRoute<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R>(
  op: TOperation<P, Q, B>,
  // A hot read served from memory answers without a Promise (cache/maybe-promise.ts). Only a
  // native Promise is awaited: return the result of an async function, never a bare thenable
  // (a Prisma query not awaited would be sent as JSON).
  handler: (input: THandlerInput<P, Q, B>) => TMaybePromise<R | Response>,
): TRouteHandler {
  const plainParams = op.params && plainParamsCheck(op.params);
  const route = async (req: Request, context: TNextContext): Promise<Response> => {
    const started = performance.now();
    const requestId = requestIdOf(req);
    let ctx: TRequestContext = { requestId, actor: { mode: "anonymous" } };
    const url = requestTarget(req);
    let res: Response;
    let rawParams: Record<string, string> = {};
    try {
      // The fast path hands them over as they are (server-handoff.mjs); Next as a Promise.
      rawParams = pathParams(context?.[PATH_PARAMS] ?? (await context?.params) ?? {}, op.paramNames);
      const established = authenticate(req, op.auth, rawParams, requestId);
      ctx = established instanceof Promise ? await established : established;
      const params = op.params ? (plainParams?.(rawParams) ?? validate(op.params, rawParams)) : rawParams;
      const query = parseQuery(op, url);
      const body = op.body ? validate(op.body, await parseJsonBody(req)) : undefined;
      const answered = handler({ ctx, params, query, body, request: req } as THandlerInput<P, Q, B>);
      const result = answered instanceof Promise ? await answered : answered;
      res = result instanceof Response ? result : jsonResponse(op, result);
    } catch (e) {
      res = op.renderError ? op.renderError(req, e, requestId) : respondWithError(e, errorShapeOf(op, e instanceof AppError ? e.code : undefined), ctx);
    }
    return finish(res, req, ctx, op, started, loggedPath(op, url.pathname, rawParams));
  };
  return Object.assign(route, { operation: op as unknown as TOperation });
}

/**
 * The body shape an error of `code` takes at `op`. A bearer token is refused in the v3 security_error
 * shape at every v3 operation, the registration operations included, whose other errors take the
 * registration shape: a client tells a bad token from bad data the same way everywhere.
 */
export function errorShapeOf(op: Pick<TOperation, "auth" | "errorShape">, code: string | undefined): TErrorShape {
  const shape = op.errorShape ?? "v3";
  return shape === "registration" && op.auth.kind === "bearer" && code?.startsWith("auth.") ? "v3" : shape;
}

/** The path as logged: a segment that is a secret parameter's value is replaced by its name. */
function loggedPath(op: TOperation, pathname: string, params: Record<string, string>): string {
  // Nearly every operation has none: its requests make no Map, array or closures for this.
  if (!op.secretParams) return pathname;
  const secrets = new Map(op.secretParams.flatMap((name) => (params[name] ? [[params[name], `{${name}}`] as const] : [])));
  if (!secrets.size) return pathname;
  return pathname
    .split("/")
    .map((segment) => secrets.get(safeDecode(segment)) ?? segment)
    .join("/");
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

type TRequestTarget = { pathname: string; search: string };

/** The request's path and query: handed over by the fast path (server-handoff.mjs), else parsed. */
function requestTarget(req: Request): TRequestTarget {
  return (req as Request & { [REQUEST_TARGET]?: TRequestTarget })[REQUEST_TARGET] ?? new URL(req.url);
}

/** The validated query; a request without one (most GETs) skips parsing and validation. */
function parseQuery(op: TOperation, url: TRequestTarget): unknown {
  if (!url.search && !op.query) return {};
  const rawQuery = queryObject(url.search);
  return validate(op.query ?? EMPTY_QUERY, rawQuery);
}

function jsonResponse(op: TOperation, result: unknown): Response {
  if (op.response.status === 204 || result === undefined) return new Response(null, { status: op.response.status, headers: emptyHeadersOf(op) });
  return stringResponse(result instanceof JsonText ? result.text : JSON.stringify(result), { status: op.response.status, headers: jsonHeadersOf(op) });
}

/**
 * The headers of an operation's successful answer, as a record made once per operation: the
 * answer's one Headers is built from it (it was built, then copied into the answer's own).
 * Names in lower case, so that an operation's own header of a name replaces the default.
 */
const headersOf = (json: boolean) =>
  derivedOnce((op: TOperation) => {
    const headers: Record<string, string> = { "cache-control": op.cacheControl ?? "no-store" };
    for (const [name, value] of Object.entries(op.response.headers ?? {})) headers[name.toLowerCase()] = value;
    if (json) headers["content-type"] = "application/json";
    return Object.freeze(headers);
  });
const jsonHeadersOf = headersOf(true);
const emptyHeadersOf = headersOf(false);

/** An answer's JSON, made already: a handler returns it for a body that many requests share. */
export class JsonText {
  constructor(readonly text: string) {}
}

/**
 * The JSON of `value`, made once for as long as the object lives: for an answer that the service
 * hands out unchanged to every request until a change replaces it (a cached rights listing, an
 * account's cached properties). Inside the server, serializing such an answer cost more than
 * reading it from the cache.
 */
export const serializedOnce = derivedOnce(toJsonText);

/** `value` serialized now, as an answer a handler may return. */
export function toJsonText(value: unknown): JsonText {
  return new JsonText(JSON.stringify(value));
}
