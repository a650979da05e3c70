import type { TPendingEvent } from "../audit/audit.service.ts";
import type { TClientAuthRow } from "../clients/clients.service.ts";
import { readCookie } from "../http/cookies.ts";
import { DEVICE_COOKIE } from "../sessions/sessions.service.ts";
import { browserActor, type TRequestContext } from "../http/request-context.ts";
import { changePasswordAtSignIn, checkSecondFactorAtSignIn, passwordChangeDue } from "./account-checks.ts";
import { CSRF_COOKIE } from "./csrf.ts";
import { checkCsrf, moveFlow, type TFlow } from "./login-flows.service.ts";
import { clientOf, completeSignIn, flowAt, nextStep, STEP_PAGE, type TStep } from "./flow-completion.ts";
import { pickLang } from "../html/texts.ts";
import { textsFor, waitText } from "./pages/i18n.ts";
import { htmlResponse, pageLink } from "../html/layout.ts";
import { pageRoute, seeOther } from "../html/page-route.ts";
import { otpStepView, passwordChangeStepView } from "./pages/step-views.ts";
import { readForm } from "../http/form.ts";
import { queryParam, type TAnswer, type TIncoming } from "../http/exchange.ts";

// The steps of a sign-in after the first method (password or QR code) proved who the person is:
// the second factor when the account requires one, then the new password when an administrator
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

/** The methods a finished multi-step sign-in records, in the session's transaction. */
const signedInEvent = (req: TIncoming, flow: TFlow & { userId: string }, client: TClientAuthRow, amr: string[]): TPendingEvent => ({
  type: "user.signed_in",
  actor: { subject: flow.userId, clientId: client.id, ...browserActor(req) },
  params: { method: amr.join("+") },
});

/** The second step's page, for the generator's code or (`backup=1`) a backup code: its form posts back to itself. */
function otpPage(req: TIncoming, flow: TFlow, csrf: string, clientName: string) {
  const backup = queryParam(req, "backup") === "1";
  const page = stepPage(req, flow, csrf, clientName, "second_factor");
  const link = (lang: string, asBackup: boolean) => pageLink(STEP_PAGE.second_factor, { flow: flow.id, lang, ...(asBackup ? { backup: "1" } : {}) });
  const other = page.lang === "ru" ? "en" : "ru";
  return { ...page, backup, action: link(page.lang, backup), switchUrl: link(other, backup), otherUrl: link(page.lang, !backup) };
}

// GET {ctx}/login/otp?flow=…[&backup=1] – the one-time code of the account's generator, or a backup code
export const otpStepPage = pageRoute("GET", "/login/otp", async (req) => {
  const { flow, csrf } = await flowAt(req, "second_factor", "recovery_second_factor");
  const client = await clientOf(flow);
  return htmlResponse(otpStepView(otpPage(req, flow, csrf, client.name)), 200);
});

// POST {ctx}/login/otp?flow=… – check the code; wrong and missing codes count like wrong passwords
export const otpStepSubmit = pageRoute("POST", "/login/otp", async (req, ctx) => {
  const { flow, csrf } = await flowAt(req, "second_factor", "recovery_second_factor");
  const form = await readForm(req);
  checkCsrf(flow, readCookie(req, CSRF_COOKIE), form.get("csrf_token"));
  const client = await clientOf(flow);
  const page = otpPage(req, flow, csrf, client.name);
  const checked = await checkSecondFactorAtSignIn(flow.userId, (form.get("otp") ?? "").replace(/\s/g, ""), { clientId: client.id, ...browserActor(req) }, readCookie(req, DEVICE_COOKIE));
  if (checked.ok) {
    const amr = [...flow.amr, "otp"];
    return continueAfterStep(req, ctx, flow, client, amr);
  }
  const error = checked.reason === "locked_out" ? page.t("login.locked_out", { wait: waitText(page.t, checked.retryAfterS) }) : page.t(checked.reason === "missing" ? "otp.missing" : page.backup ? "otp.backupWrong" : "otp.wrong");
  const status = checked.reason === "locked_out" ? 429 : 400;
  return htmlResponse(otpStepView({ ...page, error }), status, checked.reason === "locked_out" ? { "retry-after": String(checked.retryAfterS) } : {});
});

/** After a further step: the password change may still be due, else signed in. */
async function continueAfterStep(req: TIncoming, ctx: TRequestContext, flow: TFlow & { userId: string }, client: TClientAuthRow, amr: string[]): Promise<TAnswer> {
  const recovery = flow.step === "recovery_second_factor";
  const next = flow.step === "password_change" ? undefined : nextStep(amr, { secondFactor: false, passwordChange: !recovery && (await passwordChangeDue(flow.userId)) }, recovery);
  if (next) {
    await moveFlow(flow, next, { amr });
    return seeOther(pageLink(STEP_PAGE[next], { flow: flow.id, lang: queryParam(req, "lang") ?? undefined }));
  }
  return completeSignIn(req, ctx, flow, client, { userId: flow.userId, amr, events: [signedInEvent(req, flow, client, amr)] });
}

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
