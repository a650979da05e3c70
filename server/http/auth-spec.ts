import type { TMaybePromise } from "../cache/maybe-promise.ts";
import { AppError } from "../errors/app-error.ts";
import type { TErrorCode } from "../errors/codes.ts";
import type { THasHeaders } from "./exchange.ts";
import type { TRequestContext } from "./request-context.ts";

// Who may call an operation, as its definition says it; establishing who calls is the caller
// capability's (server/caller/authenticate.ts), which defineRoute hands to the request core.

/** Scopes an operation accepts, by mode: any one of them is enough (any-of). */
export type TBearerAuth = {
  kind: "bearer";
  user?: readonly string[];
  system?: readonly string[];
  /**
   * Path parameter naming the account acted on; in user mode it must be the token's user. The
   * request core resolves `current` in it to the token's user before the handler runs.
   */
  subjectParam?: string;
  /**
   * A path parameter naming an account, or one of its versions, that user mode may also call
   * `current` (the core resolves it), where the token's user is checked by the handler.
   */
  currentParam?: string;
  /** What a client token asking for `current` is told (it has no user of its own); user.not_found unless said. */
  noCurrentUser?: TErrorCode;
};
/**
 * v1/v2 HTTP Basic; with `scopes`, the client must hold one of them among its (system) scopes. A v1
 * operation refuses a client without them with 401 (v1 knows no 403); v2 with its 403 access_denied.
 */
export type TBasicAuth = { kind: "basic"; scopes?: readonly string[]; v1?: true };
export type TAuthSpec = { kind: "none" } | TBasicAuth | TBearerAuth;

/** Establishes who calls: what the request core runs before an operation's handler. */
export type TAuthenticate = (req: THasHeaders, spec: TAuthSpec, params: Record<string, string>, requestId: string) => TMaybePromise<TRequestContext>;

/**
 * For an operation whose modes of use need different scopes (POST …/members adds, or with ?rql=
 * reads): the token, already accepted for one of the operation's scopes, must hold `system` in
 * system mode or `user` in user mode (none: that use takes no user token).
 */
export function requireScope(ctx: TRequestContext, system: string, user?: string): void {
  const a = ctx.actor;
  if (a.mode !== "user" && a.mode !== "system") throw new AppError("auth.token_missing");
  const needed = a.mode === "system" ? system : user;
  if (needed === undefined) throw new AppError("auth.wrong_mode", { desc: `this use of the operation does not accept user-mode tokens; scope: ${system}` });
  if (!a.scopes.includes(needed)) throw new AppError("auth.scope_missing", { desc: `missing scopes: ${needed}`, params: { scopes: [needed] } });
}
