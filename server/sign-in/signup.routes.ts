import { getCatalog } from "../attributes/attributes.service.ts";
import { getClientForAuth } from "../clients/clients.service.ts";
import { AppError, type TInputItem } from "../errors/app-error.ts";
import { readCookie, serializeCookie } from "../http/cookies.ts";
import { browserActor } from "../http/request-context.ts";
import { readForm } from "../http/form.ts";
import { getPasswordPolicy } from "../passwords/policy-store.ts";
import { passkeyScriptPath } from "./pages/passkey-script.ts";
import { passkeySignUpOffered, waitForPasskey } from "./signup-passkey.service.ts";
import { startBrowserSession } from "./browser-session.ts";
import { CSRF_COOKIE, csrfCookieFor, csrfField, csrfMatches } from "./csrf.ts";
import { checkCsrf, csrfFieldOf, loadFlow, type TFlow } from "./login-flows.service.ts";
import { pickLang, type TLang } from "../html/texts.ts";
import { textsFor, waitText } from "./pages/i18n.ts";
import { htmlResponse, pageLink } from "../html/layout.ts";
import { pageRoute, seeOther } from "../html/page-route.ts";
import { fieldLabel, signUpTextsFor, type TSignUpText } from "./pages/signup-i18n.ts";
import { codesView, registerView, signUpDoneView, type TCodesView } from "./pages/signup-views.ts";
import { externalSignUp, linkAfterSignUp } from "./external-login.service.ts";
import { readSignUpForm, signUpFields, type TFieldProblem } from "./signup-form.ts";
import { requireSelfSignUp, signUpFlowOf } from "./signup-request.ts";
import { continueAuthorization, finishSignUp, startSignUp, submitCode, waitingContacts, type TContactKind, type TSignUpFlow } from "./signup.service.ts";
import { queryParam, type TAnswer, type TIncoming } from "../http/exchange.ts";

const other = (lang: TLang): TLang => (lang === "ru" ? "en" : "ru");
const param = (req: TIncoming, name: string) => queryParam(req, name);

/**
 * The sign-in flow a sign-up continues, when it started from the sign-in page: only the browser
 * that began that sign-in may take it on.
 */
async function loginFlowOf(req: TIncoming): Promise<TFlow | undefined> {
  const id = param(req, "flow");
  if (!id) return undefined;
  const flow = await loadFlow(id);
  if (flow.step !== "credentials") throw new AppError("login.flow_not_found");
  if (!csrfFieldOf(flow, readCookie(req, CSRF_COOKIE))) throw new AppError("login.csrf_failed");
  return flow;
}

// Nothing is stored until the form is sent, so the form's CSRF field binds it to the browser's
// cookie and to the sign-in it continues (as the logout page's form does).
const formBinding = (loginFlow: TFlow | undefined) => `signup:${loginFlow?.id ?? ""}`;

type TFormState = { values?: Record<string, string>; problems?: TFieldProblem[]; refusal?: string };

async function renderRegister(req: TIncoming, loginFlow: TFlow | undefined, cookie: string, status: number, state: TFormState = {}, headers: Record<string, string> = {}): Promise<TAnswer> {
  const lang = pickLang(req, loginFlow?.request.uiLocales);
  const client = loginFlow ? await getClientForAuth(loginFlow.clientId) : null;
  const link = (path: string, l: TLang) => pageLink(path, { flow: loginFlow?.id, lang: l });
  const fields = signUpFields(await getCatalog());
  const external = loginFlow && (await externalSignUp(loginFlow.id, fields.map((f) => f.name)));
  const st = signUpTextsFor(lang);
  // "With a passkey instead" is offered where passkeys are, and not when an external account is linked (it signs in with that).
  const passkeyScript = !external && (await passkeySignUpOffered()) ? passkeyScriptPath() : undefined;
  const markup = registerView({
    lang,
    t: textsFor(lang),
    st,
    clientName: client?.name,
    notice: external ? st("signup.linkNotice", external.notice) : undefined,
    action: link("/register", lang),
    switchUrl: link("/register", other(lang)),
    signInUrl: loginFlow ? link("/login", lang) : undefined,
    csrf: csrfField(cookie, formBinding(loginFlow)),
    fields,
    values: state.values ?? external?.values ?? {},
    problems: state.problems ?? [],
    refusal: state.refusal,
    // The configured policy, as the registration will check it.
    minPassword: (await getPasswordPolicy()).minLength,
    passkeyScript,
  });
  return htmlResponse(markup, status, headers, passkeyScript);
}

// GET {ctx}/register?flow=… – the sign-up form (the sign-in page links to it with its flow)
export const registerPage = pageRoute("GET", "/register", async (req) => {
  requireSelfSignUp();
  const loginFlow = await loginFlowOf(req);
  const csrf = csrfCookieFor(readCookie(req, CSRF_COOKIE));
  return renderRegister(req, loginFlow, csrf.cookie, 200, {}, csrf.isNew ? { "set-cookie": serializeCookie(CSRF_COOKIE, csrf.cookie) } : {});
});

/** A registration refusal in the page's words: a taken contact says so plainly (see docs/guides/self-sign-up.md). */
function problemOf(st: TSignUpText, item: TInputItem): TFieldProblem {
  if (item.error === "contact_use_violation") {
    const key = item.pos === "email" || item.pos === "phone_number" ? (`signup.taken.${item.pos}` as const) : "signup.taken.other";
    return { field: item.pos, text: st(key) };
  }
  // The service's words name no field ("must be an e-mail address"): the list above the form adds it.
  const label = item.pos === "password" ? st("signup.password") : fieldLabel(st, item.pos);
  return { field: item.pos, text: item.desc.charAt(0).toUpperCase() + item.desc.slice(1), summary: `${label}: ${item.desc}` };
}

// POST {ctx}/register?flow=… – register, send the codes, and go on to code entry
export const registerSubmit = pageRoute("POST", "/register", async (req) => {
  requireSelfSignUp();
  const loginFlow = await loginFlowOf(req);
  const form = await readForm(req);
  const cookie = readCookie(req, CSRF_COOKIE);
  if (!cookie || !csrfMatches(cookie, formBinding(loginFlow), form.get("csrf_token"))) throw new AppError("login.csrf_failed");
  const lang = pickLang(req, loginFlow?.request.uiLocales);
  const st = signUpTextsFor(lang);
  const parsed = readSignUpForm(signUpFields(await getCatalog()), form, await passkeySignUpOffered());
  if (parsed.problems.length) {
    return renderRegister(req, loginFlow, cookie, 400, { values: parsed.values, problems: parsed.problems.map((p) => ({ field: p.field, text: st(`signup.${p.code}`) })) });
  }
  const actor = { clientId: loginFlow?.clientId, ...browserActor(req) };
  const started = await startSignUp({ attrs: parsed.attrs, password: parsed.password, locale: lang, csrfCookie: cookie, loginFlow, actor });
  if (started.ok) return seeOther(pageLink("/register/code", { signup: started.flowId, lang }));
  if (started.status === 429) {
    const refusal = st("signup.throttled", { wait: waitText(textsFor(lang), started.retryAfterS!) });
    return renderRegister(req, loginFlow, cookie, 429, { values: parsed.values, refusal }, { "retry-after": String(started.retryAfterS) });
  }
  return renderRegister(req, loginFlow, cookie, started.status, { values: parsed.values, problems: started.items.map((i) => problemOf(st, i)) });
});


async function renderCodes(req: TIncoming, flow: TSignUpFlow, csrf: string, status: number, shown: Pick<TCodesView, "outcome" | "notice"> = {}, headers: Record<string, string> = {}): Promise<TAnswer> {
  const lang = pickLang(req);
  const link = (l: TLang) => pageLink("/register/code", { signup: flow.id, lang: l });
  const contacts = (await waitingContacts(flow)).map((c) => ({ ...c, shown: shownContact(c.kind, c.value) }));
  const markup = codesView({ lang, t: textsFor(lang), st: signUpTextsFor(lang), action: link(lang), switchUrl: link(other(lang)), csrf, contacts, ...shown });
  return htmlResponse(markup, status, headers);
}

/** A contact as people write it: a phone with its plus. */
const shownContact = (kind: TContactKind, value: string) => (kind === "phone" && /^\d+$/.test(value) ? `+${value}` : value);

// GET {ctx}/register/code?signup=… – code entry for every contact that waits, or the end of the sign-up
export const codesPage = pageRoute("GET", "/register/code", async (req) => {
  const { flow, csrf } = await signUpFlowOf(req);
  if (flow.step === "passkey" || flow.step === "registering") return seeOther(pageLink("/register/passkey", { signup: flow.id, lang: pickLang(req) }));
  if (flow.step === "done") {
    const lang = pickLang(req);
    const switchUrl = pageLink("/register/code", { signup: flow.id, lang: other(lang) });
    return htmlResponse(signUpDoneView({ lang, t: textsFor(lang), st: signUpTextsFor(lang), switchUrl, fromApplication: !!flow.loginFlowId }), 200);
  }
  return renderCodes(req, flow, csrf, 200);
});

// POST {ctx}/register/code?signup=… – check a contact's code or send a new one; the last code signs in
export const codesSubmit = pageRoute("POST", "/register/code", async (req) => {
  const { flow, csrf } = await signUpFlowOf(req);
  if (flow.step !== "codes") throw new AppError("signup.flow_not_found");
  const form = await readForm(req);
  checkCsrf(flow, readCookie(req, CSRF_COOKIE), form.get("csrf_token"));
  const contact = form.get("contact");
  if (contact !== "email" && contact !== "phone") throw new AppError("oauth.invalid_request", { desc: "contact must be email or phone" });
  const lang = pickLang(req);
  const st = signUpTextsFor(lang);
  const code = (form.get("code") ?? "").trim();
  const resend = form.get("action") === "resend";
  if (!resend && !code) return renderCodes(req, flow, csrf, 400, { outcome: { kind: contact, refused: true, text: st("codes.missing") } });
  const target = (await waitingContacts(flow)).find((c) => c.kind === contact);
  if (!target) return renderCodes(req, flow, csrf, 200);
  const to = shownContact(contact, target.value);
  const actor = { clientId: flow.clientId ?? undefined, ...browserActor(req) };
  const result = await submitCode(flow, contact, resend ? "resend" : { code }, lang, actor);
  switch (result.kind) {
    case "done": {
      if (flow.withPasskey) {
        await waitForPasskey(flow, result.userId);
        return seeOther(pageLink("/register/passkey", { signup: flow.id, lang }));
      }
      await finishSignUp(flow, result.userId, actor);
      await linkAfterSignUp(flow.loginFlowId, result.userId, actor);
      const { session, cookies } = await startBrowserSession(req, { userId: result.userId, amr: ["pwd"], ...actor });
      const location = (await continueAuthorization(flow, session)) ?? pageLink("/register/code", { signup: flow.id, lang });
      return seeOther(location, cookies);
    }
    case "confirmed":
      return renderCodes(req, flow, csrf, 200, { notice: { text: st(contact === "email" ? "codes.confirmedEmail" : "codes.confirmedPhone", { to }), refused: false } });
    case "refused":
      return renderCodes(req, flow, csrf, 400, { outcome: { kind: contact, refused: true } });
    case "resent":
      return renderCodes(req, flow, csrf, 200, { outcome: { kind: contact, refused: false, text: st("codes.resent", { to }) } });
    case "too_soon":
      return renderCodes(req, flow, csrf, 429, { outcome: { kind: contact, refused: true, text: st("codes.tooSoon", { wait: waitText(textsFor(lang), result.retryAfterS) }) } }, { "retry-after": String(result.retryAfterS) });
    case "taken":
      return renderCodes(req, flow, csrf, 409, { notice: { text: st("codes.taken"), refused: true } });
    case "not_waiting":
      return renderCodes(req, flow, csrf, 200);
  }
});
