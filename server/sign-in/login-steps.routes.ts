import { readCookie } from "../http/cookies.ts";
import { DEVICE_COOKIE } from "../sessions/sessions.service.ts";
import { browserActor } from "../http/request-context.ts";
import { changePasswordAtSignIn, checkSecondFactorAtSignIn } from "./account-checks.ts";
import { CSRF_COOKIE } from "./csrf.ts";
import { checkCsrf, type TFlow } from "./login-flows.service.ts";
import { clientOf, continueAfterStep, flowAt, STEP_PAGE, withSecondFactor, type TStep } from "./flow-completion.ts";
import { pickLang } from "../html/texts.ts";
import { textsFor, waitText } from "./pages/i18n.ts";
import { htmlResponse, pageLink } from "../html/layout.ts";
import { pageRoute } from "../html/page-route.ts";
import { otpStepView, passwordChangeStepView } from "./pages/step-views.ts";
import { readForm } from "../http/form.ts";
import { Answer, queryParam, type TIncoming } from "../http/exchange.ts";
import { AppError } from "../errors/app-error.ts";
import { answerFromField, hasPasskey, passkeyFactorOptions, verifyPasskeyFactor } from "../passkeys/passkey-sign-in.service.ts";
import { passkeyScriptPath } from "./pages/passkey-script.ts";
import { checkPasskeyAnswer } from "./passkey-answers.ts";

// The steps of a sign-in after the first method (password or QR code) proved who the person is:
// the second factor when the account requires one (a generator's code, a backup code, or one of
// the account's passkeys), then the new password when an administrator
// asked for one. No session exists until the last step is passed; the flow holds the account and
// the methods passed so far (amr), bound to this browser by its CSRF cookie like the first step.

function stepPage(req: TIncoming, flow: TFlow, csrf: string, clientName: string, step: TStep) {
  const lang = pickLang(req, flow.request.uiLocales);
  return {
    lang,
    t: textsFor(lang),
    clientName,
    csrf,
    action: pageLink(STEP_PAGE[step], { flow: flow.id, lang }),
    switchUrl: pageLink(STEP_PAGE[step], { flow: flow.id, lang: lang === "ru" ? "en" : "ru" }),
  };
}

/**
 * The second step's page, for the generator's code or (`backup=1`) a backup code: its form posts
 * back to itself. An account with a passkey is offered it too, by the same script as the sign-in
 * form's passkey button (which reads its addresses from the form).
 */
async function otpPage(req: TIncoming, flow: TFlow & { userId: string }, csrf: string, clientName: string) {
  const backup = queryParam(req, "backup") === "1";
  const page = stepPage(req, flow, csrf, clientName, "second_factor");
  const link = (lang: string, asBackup: boolean) => pageLink(STEP_PAGE.second_factor, { flow: flow.id, lang, ...(asBackup ? { backup: "1" } : {}) });
  const other = page.lang === "ru" ? "en" : "ru";
  const passkey = (await hasPasskey(flow.userId))
    ? { action: pageLink("/login/otp/passkey", { flow: flow.id, lang: page.lang }), options: pageLink("/login/otp/passkey/options", { flow: flow.id }), script: passkeyScriptPath() }
    : undefined;
  return { ...page, backup, action: link(page.lang, backup), switchUrl: link(other, backup), otherUrl: link(page.lang, !backup), passkey };
}

/** The page as an answer: its one script (the passkey's, when offered) allowed by the CSP. */
function otpAnswer(page: Awaited<ReturnType<typeof otpPage>>, status: number, error?: string, headers: Record<string, string> = {}) {
  return htmlResponse(otpStepView({ ...page, error }), status, headers, page.passkey?.script);
}

// GET {ctx}/login/otp?flow=…[&backup=1] – the one-time code of the account's generator, or a backup code, or a passkey
export const otpStepPage = pageRoute("GET", "/login/otp", async (req) => {
  const { flow, csrf } = await flowAt(req, "second_factor", "recovery_second_factor");
  const client = await clientOf(flow);
  return otpAnswer(await otpPage(req, flow, csrf, client.name), 200);
});

// POST {ctx}/login/otp?flow=… – check the code; wrong and missing codes count like wrong passwords
export const otpStepSubmit = pageRoute("POST", "/login/otp", async (req, ctx) => {
  const { flow, csrf } = await flowAt(req, "second_factor", "recovery_second_factor");
  const form = await readForm(req);
  checkCsrf(flow, readCookie(req, CSRF_COOKIE), form.get("csrf_token"));
  const client = await clientOf(flow);
  const checked = await checkSecondFactorAtSignIn(flow.userId, (form.get("otp") ?? "").replace(/\s/g, ""), { clientId: client.id, ...browserActor(req) }, readCookie(req, DEVICE_COOKIE));
  if (checked.ok) return continueAfterStep(req, ctx, flow, client, withSecondFactor(flow.amr, ["otp"]));
  const page = await otpPage(req, flow, csrf, client.name);
  if (checked.reason === "locked_out") return otpAnswer(page, 429, page.t("login.locked_out", { wait: waitText(page.t, checked.retryAfterS) }), { "retry-after": String(checked.retryAfterS) });
  return otpAnswer(page, 400, page.t(checked.reason === "missing" ? "otp.missing" : page.backup ? "otp.backupWrong" : "otp.wrong"));
});

// POST {ctx}/login/otp/passkey/options?flow=… – options listing the account's passkeys, for its second factor
export const passkeyFactorOptionsRoute = pageRoute("POST", "/login/otp/passkey/options", async (req) => {
  const form = await readForm(req);
  const { flow } = await flowAt(req, "second_factor", "recovery_second_factor");
  checkCsrf(flow, readCookie(req, CSRF_COOKIE), form.get("csrf_token"));
  const options = await passkeyFactorOptions(flow.userId, { use: "factor", id: flow.id });
  if (!options) throw new AppError("passkeys.not_found", { params: { id: "" } });
  return Answer.json(options, 200, { "cache-control": "no-store" });
});

// POST {ctx}/login/otp/passkey?flow=… – the device's answer as the second factor: on to the next step, or the page with a refusal
export const passkeyFactorSubmit = pageRoute("POST", "/login/otp/passkey", async (req, ctx) => {
  const { flow, csrf } = await flowAt(req, "second_factor", "recovery_second_factor");
  const form = await readForm(req);
  checkCsrf(flow, readCookie(req, CSRF_COOKIE), form.get("csrf_token"));
  const client = await clientOf(flow);
  const actor = { clientId: client.id, ...browserActor(req) };
  const checked = await checkPasskeyAnswer(actor.ip, () => verifyPasskeyFactor(flow.userId, { use: "factor", id: flow.id }, answerFromField(form.get("answer")), actor));
  if (!checked.ok) {
    const page = await otpPage(req, flow, csrf, client.name);
    if (checked.refusal === "login.locked_out") return otpAnswer(page, 429, page.t("login.locked_out", { wait: waitText(page.t, checked.retryAfterS) }), { "retry-after": String(checked.retryAfterS) });
    return otpAnswer(page, new AppError(checked.refusal).status, page.t(checked.refusal === "login.account_locked" ? "login.account_locked" : "otp.passkeyRefused"));
  }
  return continueAfterStep(req, ctx, flow, client, withSecondFactor(flow.amr, checked.value.userVerified ? ["swk", "user"] : ["swk"]));
});

// GET {ctx}/login/password?flow=… – the new password an administrator asked for
export const passwordStepPage = pageRoute("GET", "/login/password", async (req) => {
  const { flow, csrf } = await flowAt(req, "password_change");
  const client = await clientOf(flow);
  return htmlResponse(passwordChangeStepView({ ...stepPage(req, flow, csrf, client.name, "password_change"), problems: [] }), 200);
});

// POST {ctx}/login/password?flow=… – set it (the policy applies), then signed in
export const passwordStepSubmit = pageRoute("POST", "/login/password", async (req, ctx) => {
  const { flow, csrf } = await flowAt(req, "password_change");
  const form = await readForm(req);
  checkCsrf(flow, readCookie(req, CSRF_COOKIE), form.get("csrf_token"));
  const client = await clientOf(flow);
  const page = stepPage(req, flow, csrf, client.name, "password_change");
  const password = form.get("password") ?? "";
  const refuse = (problems: string[]) => htmlResponse(passwordChangeStepView({ ...page, problems }), 400);
  if (password !== (form.get("repeat") ?? "")) return refuse([page.t("pwchange.mismatch")]);
  const changed = await changePasswordAtSignIn(flow.userId, password, page.lang, { clientId: client.id, ...browserActor(req) });
  if (!changed.ok) return refuse(changed.problems);
  return continueAfterStep(req, ctx, flow, client, flow.amr);
});
