// The request core: runs one operation of the catalog for a request, whichever transport carried it.
// It authenticates, parses and validates, runs the handler, renders errors in the operation's family
// shape, and finishes the answer (request id, metrics, the log line) once. Its input is a TIncoming and
// the path parameters under the document's names; its output a TAnswer (exchange.ts). Next's route
// handlers (next-transport.ts) and the production server's node:http listener (server/serve/) are the
// two transports; both run exactly this.
import { z } from "zod";
import { derivedOnce } from "../cache/derived-once.ts";
import { AppError } from "../errors/app-error.ts";
import type { TOperation, THandlerInput } from "./define-route.ts";
import type { TAuthenticate } from "./auth-spec.ts";
import { CURRENT_SUBJECT } from "./current-subject.ts";
import { Answer, type TAnswer, type TIncoming } from "./exchange.ts";
import { parseJsonBody, queryObject, validate } from "./parse.ts";
import { plainParamsCheck } from "./plain-params.ts";
import { requestIdOf, type TRequestContext } from "./request-context.ts";
import { answerError, errorShapeOf, finish } from "./respond.ts";
import { JsonText } from "./json-text.ts";

/** One operation, ready to run: what both transports call. */
export type TOperationRun = (req: TIncoming, params: Record<string, string>) => Promise<TAnswer>;

// Operations without a query schema take no query parameters: an unknown one is refused (400).
const EMPTY_QUERY = z.strictObject({});

/**
 * The core of `op`: `handler` between authentication and validation before, and the answer after.
 * `authenticate` establishes who calls (server/caller/, handed in by defineRoute: the request layer
 * knows the auth spec, not the tokens and clients behind it).
 */
export function operationRun(op: TOperation, handler: (input: THandlerInput<z.ZodType, z.ZodType, z.ZodType>) => unknown, authenticate: TAuthenticate): TOperationRun {
  const plainParams = op.params && plainParamsCheck(op.params);
  return async (req, rawParams) => {
    const started = performance.now();
    const requestId = requestIdOf(req);
    let ctx: TRequestContext = { requestId, actor: { mode: "anonymous" } };
    let answer: TAnswer;
    try {
      const established = authenticate(req, op.auth, rawParams, requestId);
      ctx = established instanceof Promise ? await established : established;
      // Validated as sent (a schema may ask for `current` itself), then `current` becomes the user.
      const validParams = op.params ? (plainParams?.(rawParams) ?? validate(op.params, rawParams)) : rawParams;
      const params = withCurrentResolved(op, ctx, validParams as Record<string, string>);
      const query = parseQuery(op, req.search);
      const body = op.body ? validate(op.body, await parseJsonBody(req)) : undefined;
      // A hot read served from memory answers without a Promise (cache/maybe-promise.ts); anything
      // that can be awaited (a Promise, a Prisma query left unawaited) is.
      const answered = handler({ ctx, params, query, body, request: req });
      answer = toAnswer(op, isThenable(answered) ? await answered : answered);
    } catch (e) {
      answer = op.renderError ? op.renderError(req, e, requestId) : answerError(e, errorShapeOf(op, e instanceof AppError ? e.code : undefined), requestId);
    }
    return finish(answer, req, ctx, op, started, loggedPath(op, req.path, rawParams));
  };
}

/**
 * A page of the service's own (sign-in, consent): HTML, not an API operation, so no catalog entry;
 * `renderError` shows a failure as a page. It gets the same request id and log line as every answer.
 */
export function pageRun(handler: (req: TIncoming, ctx: TRequestContext) => Promise<TAnswer>, renderError: (req: TIncoming, e: unknown, requestId: string) => TAnswer): (req: TIncoming) => Promise<TAnswer> {
  return async (req) => {
    const started = performance.now();
    const ctx: TRequestContext = { requestId: requestIdOf(req), actor: { mode: "anonymous" } };
    let answer: TAnswer;
    try {
      answer = await handler(req, ctx);
    } catch (e) {
      answer = renderError(req, e, ctx.requestId);
    }
    return finish(answer, req, ctx, undefined, started, req.path);
  };
}

/**
 * The path parameters with `current` in the operation's subject parameter replaced by the token's
 * own user, once, here: handlers and services see an account id. A client token has no user of its
 * own: it is refused with the operation's error for that (user.not_found unless it names another).
 */
function withCurrentResolved(op: TOperation, ctx: TRequestContext, raw: Record<string, string>): Record<string, string> {
  const name = op.auth.kind === "bearer" ? (op.auth.subjectParam ?? op.auth.currentParam) : undefined;
  if (name === undefined || raw[name] !== CURRENT_SUBJECT) return raw;
  if (ctx.actor.mode === "user") return { ...raw, [name]: ctx.actor.userId };
  const code = (op.auth.kind === "bearer" && op.auth.noCurrentUser) || "user.not_found";
  throw new AppError(code, { desc: "a system token has no current user", params: { userId: CURRENT_SUBJECT } });
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value instanceof Promise || (typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function");
}

/** The validated query; a request without one (most GETs) skips parsing and validation. */
function parseQuery(op: TOperation, search: string): unknown {
  if (!search && !op.query) return {};
  return validate(op.query ?? EMPTY_QUERY, queryObject(search));
}

/** What a handler returned, as the answer: its own Answer, or its value as the operation's JSON. */
function toAnswer(op: TOperation, result: unknown): TAnswer {
  if (result instanceof Answer) return result;
  if (op.response.status === 204 || result === undefined) return new Answer(op.response.status, emptyHeadersOf(op));
  return new Answer(op.response.status, jsonHeadersOf(op), result instanceof JsonText ? result.text : JSON.stringify(result));
}

/**
 * The headers of an operation's successful answer, as a record made once per operation. Names in
 * lower case, so that an operation's own header of a name replaces the default.
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

/** The path as logged: a segment that is a secret parameter's value is replaced by its name. */
function loggedPath(op: TOperation, path: string, params: Record<string, string>): string {
  // Nearly every operation has none: its requests make no Map, array or closures for this.
  if (!op.secretParams) return path;
  const secrets = new Map(op.secretParams.flatMap((name) => (params[name] ? [[params[name], `{${name}}`] as const] : [])));
  if (!secrets.size) return path;
  return path
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
