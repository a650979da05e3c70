import { AppError } from "../errors/app-error.ts";
import { readCookie } from "../http/cookies.ts";
import { browserActor } from "../http/request-context.ts";
import { pageUrl } from "../oauth/authorize/authorize.service.ts";
import { readForm } from "../http/form.ts";
import { qrStateOf, startQrSignIn, takeConfirmedSignIn } from "../qr-sign-in/qr-sign-in.service.ts";
import { CSRF_COOKIE } from "./csrf.ts";
import { checkCsrf, csrfFieldOf, loadFlow, offersQr, type TFlow } from "./login-flows.service.ts";
import { clientOf, continueSignIn, flowParam } from "./flow-completion.ts";
import { pickLang } from "../html/texts.ts";
import { textsFor } from "./pages/i18n.ts";
import { htmlResponse, pageLink } from "../html/layout.ts";
import { pageRoute, seeOther } from "../html/page-route.ts";
import { qrSvg } from "./pages/qr-svg.ts";
import { POLL_SCRIPT_HASH, qrView, type TQrPageState } from "./pages/qr-views.ts";
import { queryParam, Answer, type TAnswer, type TIncoming } from "../http/exchange.ts";

/** The browser's CSRF cookie when it is the one the flow was started with: the QR code is derived from it. */
function flowCookie(req: TIncoming, flow: TFlow): { cookie: string; csrf: string } {
  const cookie = readCookie(req, CSRF_COOKIE);
  const csrf = csrfFieldOf(flow, cookie);
  if (!cookie || !csrf) throw new AppError("login.csrf_failed");
  return { cookie, csrf };
}

async function renderQr(req: TIncoming, flow: TFlow, csrf: string, view: TQrPageState): Promise<TAnswer> {
  const client = await clientOf(flow);
  const lang = pickLang(req, flow.request.uiLocales);
  const t = textsFor(lang);
  const markup = qrView({
    lang,
    t,
    switchUrl: pageLink("/login/qr", { flow: flow.id, lang: lang === "ru" ? "en" : "ru" }),
    clientName: client.name,
    startAction: pageLink("/login/qr", { flow: flow.id, lang }),
    csrf,
    passwordUrl: pageLink("/login", { flow: flow.id, lang }),
    statusUrl: pageLink("/login/qr/status", { flow: flow.id }),
    view,
    svg: view.state === "waiting" ? await qrSvg(view.code, t("qr.image")) : undefined,
  });
  return view.state === "waiting" ? htmlResponse(markup, 200, {}, POLL_SCRIPT_HASH) : htmlResponse(markup, 200);
}

// POST {ctx}/login/qr?flow=… – show a QR code for signing in from another device (a new code each time)
export const qrStart = pageRoute("POST", "/login/qr", async (req) => {
  const flow = await loadFlow(flowParam(req));
  if (flow.step !== "credentials") throw new AppError("login.flow_not_found");
  if (!offersQr(flow)) return seeOther(pageUrl("login", flow.id));
  const form = await readForm(req);
  const { cookie } = flowCookie(req, flow);
  checkCsrf(flow, cookie, form.get("csrf_token"));
  await clientOf(flow);
  await startQrSignIn(flow.id, cookie, browserActor(req));
  return seeOther(pageLink("/login/qr", { flow: flow.id, lang: queryParam(req, "lang") ?? undefined }));
});

// GET {ctx}/login/qr?flow=… – the waiting page: the QR code until a decision, then signed in like with a password
export const qrPage = pageRoute("GET", "/login/qr", async (req, ctx) => {
  const flow = await loadFlow(flowParam(req));
  if (flow.step === "consent") return seeOther(pageUrl("consent", flow.id));
  const { cookie, csrf } = flowCookie(req, flow);
  const now = new Date();
  const qr = await qrStateOf(flow.id, cookie, now);
  if (qr.state === "none") return seeOther(pageUrl("login", flow.id));
  if (qr.state === "waiting") return renderQr(req, flow, csrf, { state: "waiting", code: qr.code, secondsLeft: Math.ceil((qr.expiresAt.getTime() - now.getTime()) / 1000) });
  if (qr.state !== "confirmed") return renderQr(req, flow, csrf, { state: qr.state });
  const client = await clientOf(flow);
  const taken = await takeConfirmedSignIn(qr, { clientId: client.id, ...browserActor(req) });
  // The session inherits the confirming session's sign-in: its time, and its methods (the second factor
  // among them only if that session passed it), plus "qr".
  if (taken.ok) {
    const signedIn = { userId: taken.userId, authTime: taken.authTime, amr: [...new Set([...taken.amr, "qr"])] };
    return continueSignIn(req, ctx, flow, client, signedIn, async () => renderQr(req, flow, csrf, { state: "inactive" }));
  }
  if (taken.reason === "account_locked") return renderQr(req, flow, csrf, { state: "locked" });
  // Another tab of this browser took it a moment ago and is moving the flow on.
  return seeOther(pageLink("/login/qr", { flow: flow.id }));
});

// GET {ctx}/login/qr/status?flow=… – {"state": …}: whether the waiting page's script should reload it
export const qrStatus = pageRoute("GET", "/login/qr/status", async (req) => {
  const flow = await loadFlow(flowParam(req));
  const state = flow.step === "credentials" ? (await qrStateOf(flow.id, flowCookie(req, flow).cookie)).state : "done";
  return Answer.json({ state }, 200, { "cache-control": "no-store" });
});
