// The "login" purpose of the external-provider callback (server/federation/external-auth/handlers.ts):
// a confirmed external account signs in, waits on the flow to be linked, or the refusal goes back to
// the sign-in form.
import { AppError } from "../errors/app-error.ts";
import { readCookie } from "../http/cookies.ts";
import { browserActor, type TRequestContext } from "../http/request-context.ts";
import { rememberExternalTokens, type TExternalIdentity, type TPendingExternalAuth } from "../federation/external-auth/index.ts";
import { providerLabel } from "../federation/providers.service.ts";
import { CSRF_COOKIE } from "./csrf.ts";
import { holdExternalIdentity, ownerOfExternalAccount } from "./external-login.service.ts";
import { clientOf, continueSignIn } from "./flow-completion.ts";
import { renderLogin, type TRefusal } from "./login-form.ts";
import { csrfFieldOf, loadFlow } from "./login-flows.service.ts";
import { seeOther } from "../html/page-route.ts";
import { pageLink } from "../html/layout.ts";
import { queryParam, type TAnswer, type TIncoming } from "../http/exchange.ts";

const langOf = (req: TIncoming) => queryParam(req, "lang") ?? undefined;

/**
 * The "login" purpose of the callback: the external account's owner signs in the way a password
 * sign-in goes on (account checks, second factor, new password); an unbound account waits on the
 * flow for its person to link it or register. Failures are the callback's error pages.
 */
export async function handleExternalLogin(req: TIncoming, ctx: TRequestContext, pending: TPendingExternalAuth, identity: TExternalIdentity): Promise<TAnswer> {
  const flow = await loadFlow(pending.flowId);
  if (flow.step !== "credentials") throw new AppError("login.flow_not_found");
  // Only the browser that pressed the button goes on with its flow.
  if (!csrfFieldOf(flow, readCookie(req, CSRF_COOKIE))) throw new AppError("login.csrf_failed");
  const client = await clientOf(flow);
  const actor = { clientId: client.id, ...browserActor(req) };
  const owner = await ownerOfExternalAccount(identity, actor);
  if (owner.kind === "unbound") {
    await holdExternalIdentity(flow.id, identity);
    return seeOther(pageLink("/login/fa/link", { flow: flow.id, lang: langOf(req) }));
  }
  if (owner.kind === "locked") return renderLogin(req, flow, undefined, { code: "login.account_locked" });
  const events = [{ type: "user.signed_in", actor: { ...actor, subject: owner.userId }, params: { method: "fed", provider: providerLabel(identity.provider) } }];
  return continueSignIn(
    req,
    ctx,
    flow,
    client,
    { userId: owner.userId, amr: ["fed"], events },
    (code) => renderLogin(req, flow, undefined, { code }),
    () => rememberExternalTokens(owner.userId, identity),
  );
}

/** What the provider's refusal shows on the sign-in form rather than on a page of its own. */
const BACK_TO_SIGN_IN = new Set(["federation.provider_refused", "federation.provider_unavailable", "federation.provider_not_found"]);

/**
 * The "login" purpose's failure: the person cancelled at the provider, its answer failed the checks,
 * or it could not be reached. Back on the sign-in form of the same flow, with why, so that they can
 * sign in another way; when that flow is gone or belongs to another browser, the callback's page.
 */
export async function failExternalLogin(req: TIncoming, pending: TPendingExternalAuth, e: AppError): Promise<TAnswer> {
  if (!BACK_TO_SIGN_IN.has(e.code)) throw e;
  const flow = await loadFlow(pending.flowId).catch(() => undefined);
  if (flow?.step !== "credentials" || !csrfFieldOf(flow, readCookie(req, CSRF_COOKIE))) throw e;
  return renderLogin(req, flow, undefined, { code: e.code as TRefusal["code"] });
}
