import { AppError } from "../errors/app-error.ts";
import { readCookie } from "../http/cookies.ts";
import { Answer, type TIncoming } from "../http/exchange.ts";
import { readForm } from "../http/form.ts";
import { browserActor } from "../http/request-context.ts";
import { htmlResponse, pageLink } from "../html/layout.ts";
import { pageRoute, seeOther } from "../html/page-route.ts";
import { pickLang } from "../html/texts.ts";
import { answerFromField } from "../passkeys/passkey-sign-in.service.ts";
import { startBrowserSession } from "./browser-session.ts";
import { CSRF_COOKIE } from "./csrf.ts";
import { linkAfterSignUp } from "./external-login.service.ts";
import { checkCsrf } from "./login-flows.service.ts";
import { textsFor } from "./pages/i18n.ts";
import { passkeyScriptPath } from "./pages/passkey-script.ts";
import { signUpTextsFor } from "./pages/signup-i18n.ts";
import { signUpPasskeyView } from "./pages/signup-views.ts";
import { registerSignUpPasskey, signUpPasskeyOptions } from "./signup-passkey.service.ts";
import { signUpFlowOf } from "./signup-request.ts";
import { continueAuthorization, finishSignUp, type TSignUpFlow } from "./signup.service.ts";

// {ctx}/register/passkey?signup=… – the last step of a sign-up with a passkey instead of a password:
// the account exists (its codes are confirmed) and the browser that signed up creates its passkey.

const PATH = "/register/passkey";

/** The sign-up at its passkey step, in the browser that started it. */
async function passkeyStepOf(req: TIncoming): Promise<{ flow: TSignUpFlow; csrf: string }> {
  const found = await signUpFlowOf(req);
  if (found.flow.step !== "passkey") throw new AppError("signup.flow_not_found");
  return found;
}

function render(req: TIncoming, flow: TSignUpFlow, csrf: string, refused: boolean) {
  const lang = pickLang(req);
  const passkey = { action: pageLink(PATH, { signup: flow.id, lang }), options: pageLink(`${PATH}/options`, { signup: flow.id }), script: passkeyScriptPath(), ceremony: "create" as const };
  const switchUrl = pageLink(PATH, { signup: flow.id, lang: lang === "ru" ? "en" : "ru" });
  const markup = signUpPasskeyView({ lang, t: textsFor(lang), st: signUpTextsFor(lang), switchUrl, passkey, csrf, refused });
  return htmlResponse(markup, refused ? 400 : 200, {}, passkey.script);
}

// GET {ctx}/register/passkey?signup=… – the button that creates the account's passkey
export const signUpPasskeyPage = pageRoute("GET", PATH, async (req) => {
  const { flow, csrf } = await passkeyStepOf(req);
  return render(req, flow, csrf, false);
});

// POST {ctx}/register/passkey/options?signup=… – options for navigator.credentials.create(), bound to this sign-up
export const signUpPasskeyOptionsRoute = pageRoute("POST", `${PATH}/options`, async (req) => {
  const { flow } = await passkeyStepOf(req);
  checkCsrf(flow, readCookie(req, CSRF_COOKIE), (await readForm(req)).get("csrf_token"));
  return Answer.json(await signUpPasskeyOptions(flow), 200, { "cache-control": "no-store" });
});

// POST {ctx}/register/passkey?signup=… – the device's answer: the passkey is created and the person signed in
export const signUpPasskeySubmit = pageRoute("POST", PATH, async (req) => {
  const { flow, csrf } = await passkeyStepOf(req);
  const form = await readForm(req);
  checkCsrf(flow, readCookie(req, CSRF_COOKIE), form.get("csrf_token"));
  const lang = pickLang(req);
  const actor = { clientId: flow.clientId ?? undefined, ...browserActor(req) };
  const registered = await registerSignUpPasskey(flow, answerFromField(form.get("answer")), signUpTextsFor(lang)("passkey.name"), actor);
  if (!registered.ok) return render(req, flow, csrf, true);
  await finishSignUp(flow, registered.userId, actor);
  await linkAfterSignUp(flow.loginFlowId, registered.userId, actor);
  // RFC 8176: the device's key ("swk": nobody attested it is hardware) with the person verified on it ("user").
  const { session, cookies } = await startBrowserSession(req, { userId: registered.userId, amr: ["swk", "user"], ...actor });
  const location = (await continueAuthorization(flow, session)) ?? pageLink("/register/code", { signup: flow.id, lang });
  return seeOther(location, cookies);
});
