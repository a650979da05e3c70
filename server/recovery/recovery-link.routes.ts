import { readForm } from "../http/form.ts";
import { Answer, queryParam, type TIncoming } from "../http/exchange.ts";
import { browserActor } from "../http/request-context.ts";
import { htmlResponse, pageLink } from "../html/layout.ts";
import { pageRoute } from "../html/page-route.ts";
import { pickLang } from "../html/texts.ts";
import { answerFromField } from "../passkeys/passkey-sign-in.service.ts";
import { textsFor } from "../sign-in/pages/i18n.ts";
import { passkeyScriptPath } from "../sign-in/pages/passkey-script.ts";
import { passkeyInviteOptions, usePasskeyInvite } from "./passkey-invites.service.ts";
import { recoveryTextsFor } from "./pages/recovery-i18n.ts";
import { linkView, passkeyLinkView } from "./pages/recovery-views.ts";
import { INVITE_PATH, invitePurpose, inviteSummary, useRecoveryInvite } from "./recovery-invites.service.ts";

// {ctx}/login/recover/link?t=… – the link of an administrator's recovery message. Opening it uses
// nothing (mail scanners open links); submitting the form with a password the policy accepts does,
// and so does the answer of a device that creates a passkey, for a link sent for that.

/** Nothing longer than a token is read. */
const tokenOf = (req: TIncoming) => (queryParam(req, "t") ?? "").slice(0, 64);
const PASSKEY_PATH = `${INVITE_PATH}/passkey`;

function render(req: TIncoming, state: "form" | "spent" | "done", status: number, problems: string[] = []) {
  const lang = pickLang(req, undefined);
  const t = tokenOf(req);
  const view = linkView({
    lang,
    rt: recoveryTextsFor(lang),
    t: textsFor(lang),
    state,
    problems,
    action: pageLink(INVITE_PATH, { t, lang }),
    switchUrl: pageLink(INVITE_PATH, { t, lang: lang === "ru" ? "en" : "ru" }),
    accountUrl: pageLink("/account", {}),
  });
  return htmlResponse(view, status);
}

function renderPasskey(req: TIncoming, state: "form" | "refused" | "spent" | "done", status: number, to?: string) {
  const lang = pickLang(req, undefined);
  const t = tokenOf(req);
  const passkey = { action: pageLink(PASSKEY_PATH, { t, lang }), options: pageLink(`${PASSKEY_PATH}/options`, { t }), script: passkeyScriptPath(), ceremony: "create" as const };
  const view = passkeyLinkView({
    lang,
    rt: recoveryTextsFor(lang),
    state,
    passkey,
    to,
    switchUrl: pageLink(INVITE_PATH, { t, lang: lang === "ru" ? "en" : "ru" }),
    accountUrl: pageLink("/account", {}),
  });
  return htmlResponse(view, status, {}, state === "form" || state === "refused" ? passkey.script : undefined);
}

// GET {ctx}/login/recover/link?t=… – the new password form or the passkey button, or why the link no longer works
export const recoveryLinkPage = pageRoute("GET", INVITE_PATH, async (req) => {
  const invite = await inviteSummary(tokenOf(req));
  if (invite?.purpose === "passkey") return renderPasskey(req, "form", 200, invite.to);
  return invite ? render(req, "form", 200) : render(req, "spent", 410);
});

// POST {ctx}/login/recover/link?t=… – set the password (the policy applies; every session ends)
export const recoveryLinkSubmit = pageRoute("POST", INVITE_PATH, async (req) => {
  const form = await readForm(req);
  const lang = pickLang(req, undefined);
  const password = form.get("password") ?? "";
  if ((await invitePurpose(tokenOf(req))) !== "password") return render(req, "spent", 410);
  if (password !== (form.get("repeat") ?? "")) return render(req, "form", 400, [textsFor(lang)("pwchange.mismatch")]);
  const used = await useRecoveryInvite(tokenOf(req), password, lang, browserActor(req));
  if (used.ok) return render(req, "done", 200);
  return used.reason === "spent" ? render(req, "spent", 410) : render(req, "form", 400, used.problems);
});

// POST {ctx}/login/recover/link/passkey/options?t=… – options for navigator.credentials.create(), bound to the link
export const passkeyLinkOptions = pageRoute("POST", `${PASSKEY_PATH}/options`, async (req) =>
  Answer.json(await passkeyInviteOptions(tokenOf(req)), 200, { "cache-control": "no-store" }),
);

// POST {ctx}/login/recover/link/passkey?t=… – the device's answer: the passkey is created and the link used up
export const passkeyLinkSubmit = pageRoute("POST", PASSKEY_PATH, async (req) => {
  const form = await readForm(req);
  const lang = pickLang(req, undefined);
  const used = await usePasskeyInvite(tokenOf(req), answerFromField(form.get("answer")), recoveryTextsFor(lang)("passkeyLink.name"), browserActor(req));
  if (used.ok) return renderPasskey(req, "done", 200);
  return used.reason === "spent" ? renderPasskey(req, "spent", 410) : renderPasskey(req, "refused", 400);
});
