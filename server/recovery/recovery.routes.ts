import { getConfig } from "../config/config.ts";
import { demandsPhishingResistant } from "../oauth/authorize/acr.ts";
import { AppError } from "../errors/app-error.ts";
import { readCookie } from "../http/cookies.ts";
import { queryParam, type TAnswer, type TIncoming } from "../http/exchange.ts";
import { readForm } from "../http/form.ts";
import { browserActor } from "../http/request-context.ts";
import { htmlResponse, pageLink } from "../html/layout.ts";
import { pageRoute, seeOther } from "../html/page-route.ts";
import { pickLang, type TLang } from "../html/texts.ts";
import { changePasswordAtSignIn, stepsAfterSignIn } from "../sign-in/account-checks.ts";
import { CSRF_COOKIE } from "../sign-in/csrf.ts";
import { clientOf, completeSignIn, continueSignIn, flowAt, flowParam } from "../sign-in/flow-completion.ts";
import { checkCsrf, csrfFieldOf, loadFlow, type TFlow } from "../sign-in/login-flows.service.ts";
import { textsFor, waitText } from "../sign-in/pages/i18n.ts";
import { passwordChangeStepView } from "../sign-in/pages/step-views.ts";
import { recoveryTextsFor } from "./pages/recovery-i18n.ts";
import { codeView, requestView } from "./pages/recovery-views.ts";
import { checkRecoveryCode, openRecovery, readAddress, recoveryChannels, requestRecovery, requireRecovery, type TRecovery } from "./recovery.service.ts";

// "Forgot password?" of a sign-in flow: {ctx}/login/recover (the address), …/code (the code), and
// …/password (the new password, after the second factor when the account has one). The flow stays at
// its first step until the code is right, so the sign-in form stays usable meanwhile; every page is
// bound to the browser that started the flow by its CSRF cookie.

const other = (lang: TLang): TLang => (lang === "ru" ? "en" : "ru");

/** The flow "Forgot password?" acts on: one at its first step, in this browser. */
async function credentialsFlow(req: TIncoming): Promise<{ flow: TFlow; csrf: string }> {
  requireRecovery();
  const flow = await loadFlow(flowParam(req));
  if (flow.step !== "credentials") throw new AppError("login.flow_not_found");
  // A recovery ends in a password sign-in, which an application that asked for a passkey would refuse
  // at the end, after the password was changed: refused before anything is sent or changed.
  if (demandsPhishingResistant(flow.request.acrValues)) throw new AppError("login.passkey_required");
  const csrf = csrfFieldOf(flow, readCookie(req, CSRF_COOKIE));
  if (!csrf) throw new AppError("login.csrf_failed");
  return { flow, csrf };
}

const offered = (): "both" | "email" | "phone" => {
  const channels = recoveryChannels();
  return channels.length === 2 ? "both" : channels[0]!;
};

function pageOf(req: TIncoming, flow: TFlow, path: string) {
  const lang = pickLang(req, flow.request.uiLocales);
  return {
    lang,
    rt: recoveryTextsFor(lang),
    action: pageLink(path, { flow: flow.id, lang }),
    switchUrl: pageLink(path, { flow: flow.id, lang: other(lang) }),
    backUrl: pageLink("/login", { flow: flow.id, lang }),
  };
}

function renderRequest(req: TIncoming, flow: TFlow, csrf: string, status: number, shown: { value?: string; error?: string } = {}, headers: Record<string, string> = {}): TAnswer {
  return htmlResponse(requestView({ ...pageOf(req, flow, "/login/recover"), csrf, offered: offered(), ...shown }), status, headers);
}

// GET {ctx}/login/recover?flow=… – the e-mail or phone a code goes to
export const recoverPage = pageRoute("GET", "/login/recover", async (req) => {
  const { flow, csrf } = await credentialsFlow(req);
  return renderRequest(req, flow, csrf, 200);
});

// POST {ctx}/login/recover?flow=… – send the code (when an account has the address), then code entry
export const recoverSubmit = pageRoute("POST", "/login/recover", async (req) => {
  const { flow, csrf } = await credentialsFlow(req);
  const form = await readForm(req);
  checkCsrf(flow, readCookie(req, CSRF_COOKIE), form.get("csrf_token"));
  const page = pageOf(req, flow, "/login/recover");
  const value = (form.get("address") ?? "").trim().slice(0, 254);
  const address = readAddress(value);
  if (address === "unknown") return renderRequest(req, flow, csrf, 400, { value, error: page.rt(`recover.unreadable.${offered()}`) });
  // Only the configuration is told here: the other kind of address is not offered at all.
  if (address === "off") return renderRequest(req, flow, csrf, 400, { value, error: page.rt(offered() === "phone" ? "recover.off.email" : "recover.off.phone") });
  const client = await clientOf(flow);
  const requested = await requestRecovery(flow.id, address, page.lang, { clientId: client.id, ...browserActor(req) });
  if (!requested.ok) {
    const error = page.rt("recover.throttled", { wait: waitText(textsFor(page.lang), requested.retryAfterS) });
    return renderRequest(req, flow, csrf, 429, { value, error }, { "retry-after": String(requested.retryAfterS) });
  }
  return seeOther(pageLink("/login/recover/code", { flow: flow.id, lang: page.lang }));
});

function renderCode(req: TIncoming, flow: TFlow, csrf: string, recovery: Pick<TRecovery, "channel" | "address"> | undefined, status: number, error?: string): TAnswer {
  const page = pageOf(req, flow, "/login/recover/code");
  const minutes = String(Math.max(1, Math.round(getConfig().codes.ttl / 60)));
  const sent = recovery ? page.rt(`code.sent.${recovery.channel}`, { to: recovery.channel === "phone" ? `+${recovery.address}` : recovery.address, minutes }) : "";
  const againUrl = pageLink("/login/recover", { flow: flow.id, lang: page.lang });
  return htmlResponse(codeView({ ...page, csrf, sent, error: recovery ? error : page.rt("code.spent"), spent: !recovery, againUrl }), status);
}

// GET {ctx}/login/recover/code?flow=… – code entry; a flow without a usable recovery starts over
export const recoverCodePage = pageRoute("GET", "/login/recover/code", async (req) => {
  const { flow, csrf } = await credentialsFlow(req);
  const recovery = await openRecovery(flow.id);
  if (!recovery) return seeOther(pageLink("/login/recover", { flow: flow.id, lang: queryParam(req, "lang") ?? undefined }));
  return renderCode(req, flow, csrf, recovery, 200);
});

// POST {ctx}/login/recover/code?flow=… – check the code; the right one goes on to the second factor or the new password
export const recoverCodeSubmit = pageRoute("POST", "/login/recover/code", async (req, ctx) => {
  const { flow, csrf } = await credentialsFlow(req);
  const form = await readForm(req);
  checkCsrf(flow, readCookie(req, CSRF_COOKIE), form.get("csrf_token"));
  const recovery = await openRecovery(flow.id);
  if (!recovery) return renderCode(req, flow, csrf, undefined, 400);
  const rt = recoveryTextsFor(pickLang(req, flow.request.uiLocales));
  // People paste codes with spaces or dashes; nothing longer than a code is read.
  const code = (form.get("code") ?? "").replace(/[\s-]/g, "").slice(0, 16);
  if (!code) return renderCode(req, flow, csrf, recovery, 400, rt("code.missing"));
  const client = await clientOf(flow);
  const checked = await checkRecoveryCode(recovery, code, { clientId: client.id, ...browserActor(req) });
  if (!checked.ok) return renderCode(req, flow, csrf, checked.reason === "spent" ? undefined : recovery, 400, checked.reason === "wrong" ? rt("code.wrong", { n: String(checked.triesLeft) }) : undefined);
  const refuse = async (refusal: "login.password_locked" | "login.inactivity_locked") => renderRequest(req, flow, csrf, 403, { error: textsFor(pickLang(req, flow.request.uiLocales))(refusal) });
  return continueSignIn(req, ctx, flow, client, { userId: checked.userId, amr: checked.amr, recovery: true }, refuse);
});

async function renderNewPassword(req: TIncoming, flow: TFlow, csrf: string, status: number, problems: string[]): Promise<TAnswer> {
  const { lang, rt, action, switchUrl } = pageOf(req, flow, "/login/recover/password");
  const words = { title: rt("newpw.title"), why: rt("newpw.why"), submit: rt("newpw.submit") };
  const client = await clientOf(flow);
  return htmlResponse(passwordChangeStepView({ lang, t: textsFor(lang), clientName: client.name, csrf, action, switchUrl, problems, words }), status);
}

// GET {ctx}/login/recover/password?flow=… – the new password, once the code (and the second factor) passed
export const recoverPasswordPage = pageRoute("GET", "/login/recover/password", async (req) => {
  const { flow, csrf } = await flowAt(req, "recovery_password");
  return renderNewPassword(req, flow, csrf, 200, []);
});

// POST {ctx}/login/recover/password?flow=… – set it (the policy applies; every other session ends), then signed in
export const recoverPasswordSubmit = pageRoute("POST", "/login/recover/password", async (req, ctx) => {
  const { flow, csrf } = await flowAt(req, "recovery_password");
  const form = await readForm(req);
  checkCsrf(flow, readCookie(req, CSRF_COOKIE), form.get("csrf_token"));
  const lang = pickLang(req, flow.request.uiLocales);
  const password = form.get("password") ?? "";
  if (password !== (form.get("repeat") ?? "")) return renderNewPassword(req, flow, csrf, 400, [textsFor(lang)("pwchange.mismatch")]);
  const client = await clientOf(flow);
  const actor = { clientId: client.id, ...browserActor(req) };
  // Asked again: an administrator may have turned password sign-in off since the code was accepted.
  const steps = await stepsAfterSignIn(flow.userId, flow.amr, actor, true);
  if (steps.refusal) return renderNewPassword(req, flow, csrf, 403, [textsFor(lang)(steps.refusal)]);
  const changed = await changePasswordAtSignIn(flow.userId, password, lang, actor, { by: "recovery", method: flow.amr[0] ?? "" });
  if (!changed.ok) return renderNewPassword(req, flow, csrf, 400, changed.problems);
  const signedIn = { type: "user.signed_in", actor: { ...actor, subject: flow.userId }, params: { method: flow.amr.join("+"), by: "recovery" } };
  return completeSignIn(req, ctx, flow, client, { userId: flow.userId, amr: flow.amr, events: [signedIn] });
});
