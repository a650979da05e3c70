import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import { getConfig } from "../config/config.ts";
import { AppError } from "../errors/app-error.ts";
import { deleteTemplateRow, findTemplateRows, upsertTemplateRow } from "./message-templates.repository.ts";
import { ZTemplateKey, ZTemplateTextInput, type TTemplateTextInput } from "./messaging.schemas.ts";
import { builtInText, CHANNELS, LOCALES, placeholdersOf, renderTemplate, TEMPLATE_NAMES, unknownPlaceholders, type TTemplateName, type TTemplateParams } from "./templates.ts";

/*
 * Administrators rewrite the texts of messages per template, channel and language. A rewritten text
 * keeps the template's placeholders ({code} …), which are filled in when a message is written; the
 * ones that carry the message's point (the code, the link, the password) cannot be left out.
 */

type TItem = { error: string; desc: string; pos: string };

/** Why a rewritten text cannot be used, field by field (empty when it can). */
function problemsOf(input: TTemplateTextInput): TItem[] {
  if (!builtInText(input.template, input.channel, input.locale)) {
    return [{ error: "wrong_value", desc: `this message is not sent by ${input.channel}`, pos: "channel" }];
  }
  const items: TItem[] = [];
  const { names, required, secret } = placeholdersOf(input.template);
  const known = names.length ? names.map((n) => `{${n}}`).join(", ") : "none";
  if (input.channel === "email") {
    if (!input.subject?.trim()) items.push({ error: "wrong_value", desc: "is required for an e-mail", pos: "subject" });
    else if (/[\r\n]/.test(input.subject)) items.push({ error: "wrong_value", desc: "must be one line", pos: "subject" });
    else if (unknownPlaceholders(input.template, input.subject).length) {
      items.push({ error: "wrong_value", desc: `uses ${unknownPlaceholders(input.template, input.subject).map((n) => `{${n}}`).join(", ")}, which this message does not have (it has: ${known})`, pos: "subject" });
    } else if (secret.some((n) => input.subject!.includes(`{${n}}`))) {
      const used = secret.filter((n) => input.subject!.includes(`{${n}}`)).map((n) => `{${n}}`).join(", ");
      items.push({ error: "wrong_value", desc: `must not carry ${used}: subjects are stored unencrypted and listed in the outbox to every console role`, pos: "subject" });
    }
  } else if (input.subject !== null) items.push({ error: "wrong_value", desc: "an SMS has no subject", pos: "subject" });
  const unknown = unknownPlaceholders(input.template, input.text);
  if (unknown.length) items.push({ error: "wrong_value", desc: `uses ${unknown.map((n) => `{${n}}`).join(", ")}, which this message does not have (it has: ${known})`, pos: "text" });
  const missing = required.filter((n) => !input.text.includes(`{${n}}`));
  if (missing.length) items.push({ error: "wrong_value", desc: `must contain ${missing.map((n) => `{${n}}`).join(", ")}: without it the message is useless`, pos: "text" });
  return items;
}

function checked(raw: unknown): TTemplateTextInput {
  const input = ZTemplateTextInput.parse(raw);
  const items = problemsOf(input);
  if (items.length) throw new AppError("request.invalid_values", { items });
  return input;
}

/** Made-up values a preview shows in place of the placeholders. */
function sampleParams(template: TTemplateName): TTemplateParams<TTemplateName> {
  const samples: { [K in TTemplateName]: TTemplateParams<K> } = {
    confirm_email_code: { code: "123456", minutes: 10 },
    confirm_phone_code: { code: "123456", minutes: 10 },
    registration_email_code: { code: "123456", minutes: 10 },
    registration_phone_code: { code: "123456", minutes: 10 },
    recovery_email_code: { code: "123456", minutes: 10 },
    recovery_phone_code: { code: "123456", minutes: 10 },
    test_message: {},
    account_notice: { kind: "password_changed", when: new Date().toISOString(), from: "198.51.100.7", device: "Firefox, Linux", detail: null },
    recovery_invite: { link: `${getConfig().issuer}/login/recover/link?t=EXAMPLE`, hours: 24 },
    passkey_invite: { link: `${getConfig().issuer}/login/recover/link?t=EXAMPLE`, hours: 24 },
    new_password: { password: "Example-Passw0rd" },
  };
  return samples[template];
}

/** Every template's text on each channel and language: the built-in one, and the rewritten one if any. */
export async function listTemplates() {
  const rows = new Map((await findTemplateRows()).map((r) => [`${r.template}/${r.channel}/${r.locale}`, r]));
  return TEMPLATE_NAMES.flatMap((template) =>
    CHANNELS.flatMap((channel) =>
      LOCALES.flatMap((locale) => {
        const builtIn = builtInText(template, channel, locale);
        if (!builtIn) return [];
        const row = rows.get(`${template}/${channel}/${locale}`);
        return [{ template, channel, locale, ...placeholdersOf(template), builtIn, rewritten: row ? { subject: row.subject, text: row.body, updatedAt: row.updatedAt } : null }];
      }),
    ),
  );
}

/** The message as a person would receive it, with made-up values; refused as a save would be. */
export function previewTemplate(raw: unknown) {
  const input = checked(raw);
  return renderTemplate(input.template, input.channel, input.locale, sampleParams(input.template), { subject: input.subject, text: input.text });
}

/** Stores a rewritten text; messages written from now on use it. */
export async function saveTemplate(raw: unknown, actor: TEventActor) {
  const input = checked(raw);
  const { template, channel, locale } = input;
  await upsertTemplateRow({ template, channel, locale, subject: input.channel === "email" ? input.subject!.trim() : null, body: input.text });
  await recordEvent("delivery.template_changed", actor, { template, channel, locale, reset: false });
}

/** Goes back to the built-in text. */
export async function resetTemplate(raw: unknown, actor: TEventActor) {
  const key = ZTemplateKey.parse(raw);
  if (await deleteTemplateRow(key)) await recordEvent("delivery.template_changed", actor, { ...key, reset: true });
}
