import { AppError } from "../errors/app-error.ts";
import { readCookie } from "../http/cookies.ts";
import { startExternalAuth, type TExternalIdentity } from "../federation/external-auth/index.ts";
import { readForm } from "../http/form.ts";
import { CSRF_COOKIE } from "./csrf.ts";
import { heldExternalIdentity, offeredProvider, registrationAllowed } from "./external-login.service.ts";
import { flowParam } from "./flow-completion.ts";
import { renderLogin, submitCredentials } from "./login-form.ts";
import { checkCsrf, loadFlow, type TFlow } from "./login-flows.service.ts";
import { pageRoute, seeOther } from "../html/page-route.ts";
import type { TIncoming } from "../http/exchange.ts";

// The sign-in page's external providers: the button sends the browser to the provider with this
// flow (purpose "login"); the service's callback (server/federation/external-auth) checks what comes
// back and hands the external account to handleExternalLogin (external-login-callback.ts).

// POST {ctx}/login/fa?flow=… – sign in at the chosen external provider (form field fp = "<fpType>:<fpName>")
export const externalStart = pageRoute("POST", "/login/fa", async (req) => {
  const flow = await loadFlow(flowParam(req));
  if (flow.step !== "credentials") throw new AppError("login.flow_not_found");
  const form = await readForm(req);
  checkCsrf(flow, readCookie(req, CSRF_COOKIE), form.get("csrf_token"));
  const provider = await offeredProvider(form.get("fp"));
  const { redirectTo } = await startExternalAuth({ provider, purpose: "login", flowId: flow.id, clientId: flow.clientId });
  return seeOther(redirectTo);
});

/** The flow a link page acts on, with the external account it holds (none: the flow is not at that point). */
async function linkingFlow(req: TIncoming): Promise<{ flow: TFlow; identity: TExternalIdentity }> {
  const flow = await loadFlow(flowParam(req));
  const identity = flow.step === "credentials" ? heldExternalIdentity(flow) : undefined;
  if (!identity) throw new AppError("login.flow_not_found");
  return { flow, identity };
}

// GET {ctx}/login/fa/link?flow=… – an external account bound to nobody: sign in with a password to link it, or register
export const externalLinkPage = pageRoute("GET", "/login/fa/link", async (req) => {
  const { flow, identity } = await linkingFlow(req);
  return renderLogin(req, flow, undefined, undefined, { identity, register: await registrationAllowed(identity) });
});

// POST {ctx}/login/fa/link?flow=… – the password: the external account is bound to its account, and the sign-in goes on
export const externalLinkSubmit = pageRoute("POST", "/login/fa/link", async (req, ctx) => {
  const { flow, identity } = await linkingFlow(req);
  return submitCredentials(req, ctx, flow, { identity, register: await registrationAllowed(identity) });
});
