import type { z } from "zod";
import type { TMaybePromise } from "../cache/maybe-promise.ts";
import type { THandlerInput, TOperation, TRouteHandler } from "../http/define-route.ts";
import type { Answer } from "../http/exchange.ts";
import { nextRoute } from "../http/next-transport.ts";
import { operationRun } from "../http/request-core.ts";
import { authenticate } from "./authenticate.ts";

/**
 * The one way to expose an operation. The request core (server/http/request-core.ts) authenticates (with this folder's authenticate), checks
 * scopes, parses and validates params, query and body, runs the handler, maps thrown AppErrors to the
 * endpoint's error shape and logs one line; the catalog (server/api/) lists the operation for the
 * OpenAPI document and the node:http transport. A handler returns a value (sent as the operation's
 * JSON) or an Answer of its own.
 */
export function defineRoute<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R>(
  op: TOperation<P, Q, B>,
  handler: (input: THandlerInput<P, Q, B>) => TMaybePromise<R | Answer>,
): TRouteHandler {
  const operation = op as unknown as TOperation;
  const run = operationRun(operation, handler as (input: THandlerInput<z.ZodType, z.ZodType, z.ZodType>) => unknown, authenticate);
  return Object.assign(nextRoute(run, op.paramNames), { operation, run });
}
