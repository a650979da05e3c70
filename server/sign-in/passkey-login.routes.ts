import { AppError } from "../errors/app-error.ts";
import { readCookie } from "../http/cookies.ts";
import { readForm } from "../http/form.ts";
import { Answer } from "../http/exchange.ts";
import { browserActor } from "../http/request-context.ts";
import { pageRoute } from "../html/page-route.ts";
import { answerFromField, passkeySignInOptions, verifyPasskeySignIn } from "../passkeys/passkey-sign-in.service.ts";
import { CSRF_COOKIE } from "./csrf.ts";
import { clientOf, continueSignIn, flowParam } from "./flow-completion.ts";
import { checkCsrf, loadFlow, type TFlow } from "./login-flows.service.ts";
import { renderLogin } from "./login-form.ts";
import { checkPasskeyAnswer } from "./passkey-answers.ts";
import { PASSKEY_SCRIPT } from "./pages/passkey-script.ts";

// Sign-in with a passkey, from the sign-in form: options bound to the flow, then the answer. (As the
// second factor, on the step after a password: login-steps.routes.ts.)

/** The flow at its first step, asked by the browser it belongs to. */
async function credentialsFlow(req: Parameters<typeof readForm>[0], form: Map<string, string>): Promise<TFlow> {
  const flow = await loadFlow(flowParam(req));
  if (flow.step !== "credentials") throw new AppError("login.flow_not_found");
  checkCsrf(flow, readCookie(req, CSRF_COOKIE), form.get("csrf_token") ?? undefined);
  return flow;
}

// GET {ctx}/login/passkey/script – the passkey button's script (the page runs no inline script)
export const passkeyScript = pageRoute("GET", "/login/passkey/script", async () =>
  new Answer(200, { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-cache", "x-content-type-options": "nosniff" }, PASSKEY_SCRIPT),
);

// POST {ctx}/login/passkey/options?flow=… – options for navigator.credentials.get(), with a challenge this flow answers once
export const passkeyOptions = pageRoute("POST", "/login/passkey/options", async (req) => {
  const flow = await credentialsFlow(req, await readForm(req));
  return Answer.json(await passkeySignInOptions(flow.id), 200, { "cache-control": "no-store" });
});

// POST {ctx}/login/passkey?flow=… – the device's answer: signed in as the passkey's account, or the form again
export const passkeySubmit = pageRoute("POST", "/login/passkey", async (req, ctx) => {
  const form = await readForm(req);
  const flow = await credentialsFlow(req, form);
  const client = await clientOf(flow);
  const answer = answerFromField(form.get("answer"));
  const actor = { clientId: client.id, ...browserActor(req) };
  const checked = await checkPasskeyAnswer(actor.ip, () => verifyPasskeySignIn(flow.id, answer, actor));
  if (!checked.ok) return renderLogin(req, flow, undefined, { code: checked.refusal, retryAfterS: checked.retryAfterS });
  const signedIn = checked.value;
  // RFC 8176: proof of possession of a key ("swk": without attestation nobody can say it is hardware),
  // the person verified on the device ("user"), two factors at once ("mfa").
  const amr = ["swk", "user", "mfa"];
  const events = [{ type: "user.signed_in", actor: { ...actor, subject: signedIn.userId }, params: { method: "passkey" } }];
  return continueSignIn(req, ctx, flow, client, { userId: signedIn.userId, amr, events }, (code) => renderLogin(req, flow, undefined, { code }));
});

