import { initTRPC, TRPCError } from "@trpc/server";
import type { Session } from "next-auth";
import type { TEventActor } from "../audit/audit.service.ts";
import { consoleUserOf, readConsoleSession } from "../auth/console-session.ts";
import { AppError } from "../errors/app-error.ts";
import { forwardedFor } from "../http/request-context.ts";
import { describeTRPCError, toTRPCError } from "./errors.ts";

export type TTrpcContext = { session: Session | null; ip?: string; userAgent?: string };

/** Per request: who is signed in (next-auth cookie) and where the call comes from, for the audit trail. */
export async function createTrpcContext(req: Request): Promise<TTrpcContext> {
  return {
    session: await readConsoleSession(),
    ip: forwardedFor(req),
    userAgent: req.headers.get("user-agent")?.slice(0, 512) ?? undefined,
  };
}

const t = initTRPC.context<TTrpcContext>().create({
  // Stacks and causes stay in the server log; the client gets the registry code and field items.
  isDev: false,
  errorFormatter({ shape, error }) {
    const { message, data } = describeTRPCError(error);
    return { ...shape, message, data: { code: shape.data.code, httpStatus: shape.data.httpStatus, path: shape.data.path, ...data } };
  },
});

export const createRouter = t.router;

/** Services throw AppError; tRPC would report any non-TRPCError as a 500. */
const mapAppErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof AppError) throw toTRPCError(result.error.cause);
  return result;
});

/** Console procedures: a signed-in administrator, re-checked against the database on every call. */
export const adminProcedure = t.procedure.use(mapAppErrors).use(async ({ ctx, next }) => {
  const admin = await consoleUserOf(ctx.session);
  if (!admin) throw new TRPCError({ code: "UNAUTHORIZED", message: "sign in as an administrator" });
  const actor: TEventActor = { subject: admin.id, ip: ctx.ip, userAgent: ctx.userAgent };
  return next({ ctx: { admin, actor } });
});
