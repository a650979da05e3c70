import { TRPCError, type TRPC_ERROR_CODE_KEY } from "@trpc/server";
import { z } from "zod";
import { AppError, type TInputItem } from "../errors/app-error.ts";
import { zodItems } from "../http/parse.ts";

const CODE_BY_STATUS: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_SUPPORTED",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  429: "TOO_MANY_REQUESTS",
  503: "SERVICE_UNAVAILABLE",
};

/** An AppError as tRPC reports it: the same HTTP status, the AppError kept as cause for the formatter. */
export function toTRPCError(e: AppError): TRPCError {
  return new TRPCError({ code: CODE_BY_STATUS[e.status] ?? "INTERNAL_SERVER_ERROR", message: e.message, cause: e });
}

/** What the console reads from a failed call: the registry code and the field-level items. */
export type TConsoleErrorData = { appCode: string | null; items: TInputItem[] };

/**
 * Describes a failed call for the client. Input that fails the procedure's zod schema gets the same
 * items as the REST layer's input_error; an unexpected failure keeps its cause out of the answer.
 */
export function describeTRPCError(error: TRPCError): { message: string; data: TConsoleErrorData } {
  const cause = error.cause;
  if (cause instanceof AppError) {
    return { message: cause.message, data: { appCode: cause.code, items: cause.details.items ?? [] } };
  }
  if (cause instanceof z.ZodError) {
    return { message: "invalid values", data: { appCode: "request.invalid_values", items: zodItems(cause.issues) } };
  }
  if (error.code === "INTERNAL_SERVER_ERROR") return { message: "unexpected error", data: { appCode: "internal", items: [] } };
  return { message: error.message, data: { appCode: null, items: [] } };
}

/** True for failures the operator should see in the log: not the caller's mistakes. */
export function isServerFault(error: TRPCError): boolean {
  return error.code === "INTERNAL_SERVER_ERROR" || (error.cause instanceof AppError && error.cause.status >= 500);
}
