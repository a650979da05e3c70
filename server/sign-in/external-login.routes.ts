import { AppError } from "../errors/app-error.ts";
import { readCookie } from "../http/cookies.ts";
import { browserActor, type TRequestContext } from "../http/request-context.ts";
import { rememberExternalTokens, startExternalAuth, type TExternalIdentity, type TPendingExternalAuth } from "../federation/external-auth/index.ts";
import { providerLabel } from "../federation/providers.service.ts";
import { readForm } from "../http/form.ts";
import { CSRF_COOKIE } from "./csrf.ts";
import { heldExternalIdentity, holdExternalIdentity, offeredProvider, ownerOfExternalAccount, registrationAllowed } from "./external-login.service.ts";
import { clientOf, flowParam } from "./flow-completion.ts";
import { continueSignIn } from "./login-steps.routes.ts";
import { renderLogin, submitCredentials, type TRefusal } from "./login.routes.ts";
import { checkCsrf, csrfFieldOf, loadFlow, type TFlow } from "./login-flows.service.ts";
import { pageRoute, seeOther } from "./pages/page-route.ts";
import { pageLink } from "./pages/layout.ts";
import { queryParam, type TAnswer, type TIncoming } from "../http/exchange.ts";

// The sign-in page's external providers: the button sends the browser to the provider with this
// flow (purpose "login"); the service's callback (server/federation/external-auth) checks what comes
// back and hands the external account to handleExternalLogin below.

const langOf = (req: TIncoming) => queryParam(req, "lang") ?? undefined;

// POST {ctx}/login/fa?flow=… – sign in at the chosen external provider (form field fp = "<fpType>:<fpName>")
export const externalStart = pageRoute(async (req) => {
  const flow = await loadFlow(flowParam(req));
  if (flow.step !== "credentials") throw new AppError("login.flow_not_found");
  const form = await readForm(req);
  checkCsrf(flow, readCookie(req, CSRF_COOKIE), form.get("csrf_token"));
  const provider = await offeredProvider(form.get("fp"));
  const { redirectTo } = await startExternalAuth({ provider, purpose: "login", flowId: flow.id, clientId: flow.clientId });
  return seeOther(redirectTo);
});

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

/** The flow a link page acts on, with the external account it holds (none: the flow is not at that point). */
async function linkingFlow(req: TIncoming): Promise<{ flow: TFlow; identity: TExternalIdentity }> {
  const flow = await loadFlow(flowParam(req));
  const identity = flow.step === "credentials" ? await heldExternalIdentity(flow.id) : undefined;
  if (!identity) throw new AppError("login.flow_not_found");
  return { flow, identity };
}

// GET {ctx}/login/fa/link?flow=… – an external account bound to nobody: sign in with a password to link it, or register
export const externalLinkPage = pageRoute(async (req) => {
  const { flow, identity } = await linkingFlow(req);
  return renderLogin(req, flow, undefined, undefined, { identity, register: await registrationAllowed(identity) });
});

// POST {ctx}/login/fa/link?flow=… – the password: the external account is bound to its account, and the sign-in goes on
export const externalLinkSubmit = pageRoute(async (req, ctx) => {
  const { flow, identity } = await linkingFlow(req);
  return submitCredentials(req, ctx, flow, { identity, register: await registrationAllowed(identity) });
});
