import type { z } from "zod";
import type { TErrorCode } from "../errors/codes.ts";
import type { TErrorShape } from "../errors/render.ts";
import type { TAuthSpec } from "./auth-spec.ts";
import type { TNextRouteHandler } from "./next-transport.ts";
import type { TRequestContext } from "./request-context.ts";
import type { TOperationRun } from "./request-core.ts";
import type { TAnswer, TIncoming } from "./exchange.ts";

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
  renderError?: (req: TIncoming, e: unknown, requestId: string) => TAnswer;
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
  request: TIncoming;
};

/**
 * An operation as its app/ route file exports it: a Next route handler (next-transport.ts), with the
 * operation it serves and its core run, which the production server's node:http transport calls.
 */
export type TRouteHandler = TNextRouteHandler & { operation: TOperation; run: TOperationRun };
