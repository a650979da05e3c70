"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useEffect, useState, type FormEvent } from "react";
import type { AppRouter } from "@/server/trpc/root";
import { DateTime } from "../../date-time.tsx";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import { SelectField, TextAreaField, TextField } from "../../ui/field.tsx";
import { useFocusFirstError } from "../../ui/use-focus-first-error.ts";
import { fieldErrorsOf, messageOf } from "../call-errors.ts";
import { QueryStates } from "../list-parts.tsx";
import { useTRPC } from "../trpc.ts";
import { useDebounced } from "../use-debounced.ts";
import { useCan } from "../viewer.tsx";
import { useMessagingText, type TMessagingKey } from "./i18n.ts";
import "./messaging.css";

type TEntry = inferRouterOutputs<AppRouter>["console"]["templates"]["list"][number];
type TKey = Pick<TEntry, "template" | "channel" | "locale">;

const keyOf = (e: TKey) => `${e.template}/${e.channel}/${e.locale}`;

/** The message as a person would receive it, with made-up values, refreshed as the administrator types. */
function Preview({ entry, subject, text }: { entry: TEntry; subject: string; text: string }) {
  const { t } = useI18n();
  const m = useMessagingText();
  const trpc = useTRPC();
  const preview = useMutation(trpc.console.templates.preview.mutationOptions());
  const settled = useDebounced({ subject, text }, 300);
  const { mutate } = preview;
  useEffect(() => {
    mutate({ template: entry.template, channel: entry.channel, locale: entry.locale, subject: entry.channel === "email" ? settled.subject : null, text: settled.text });
  }, [mutate, entry.template, entry.channel, entry.locale, settled.subject, settled.text]);
  return (
    <section className="template-preview" aria-labelledby="template-preview">
      <h2 id="template-preview">{m("templates.preview")}</h2>
      {preview.data ? (
        <div className="template-preview__message" lang={entry.locale}>
          {preview.data.subject !== null ? <p className="template-preview__subject">{preview.data.subject}</p> : null}
          <pre className="template-preview__text">{preview.data.text}</pre>
        </div>
      ) : preview.isError ? (
        <p className="muted">{m("templates.previewRefused", { reason: Object.values(fieldErrorsOf(preview.error, t)).join("; ") || messageOf(preview.error, t) })}</p>
      ) : null}
    </section>
  );
}

function TemplateEditor({ entry, canEdit }: { entry: TEntry; canEdit: boolean }) {
  const { t } = useI18n();
  const m = useMessagingText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const current = entry.rewritten ?? entry.builtIn;
  const [subject, setSubject] = useState(current.subject ?? "");
  const [text, setText] = useState(current.text);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.console.templates.list.queryKey() });
  const save = useMutation(trpc.console.templates.save.mutationOptions({ onSuccess: refresh }));
  const reset = useMutation(
    trpc.console.templates.reset.mutationOptions({
      onSuccess: () => {
        setSubject(entry.builtIn.subject ?? "");
        setText(entry.builtIn.text);
        return refresh();
      },
    }),
  );
  const errors = save.isError ? fieldErrorsOf(save.error, t) : {};
  const formRef = useFocusFirstError<HTMLFormElement>(save.error);
  const key = { template: entry.template, channel: entry.channel, locale: entry.locale };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    reset.reset();
    save.mutate({ ...key, subject: entry.channel === "email" ? subject : null, text });
  };
  const placeholders = entry.names.map((n) => `{${n}}`).join(" ");
  return (
    <div className="templates__editor">
      <form ref={formRef} className="template-form" onSubmit={submit} noValidate aria-label={m("templates.editor")}>
        <p className="muted">
          {entry.rewritten ? (
            <>
              {m("templates.rewritten")} <DateTime value={entry.rewritten.updatedAt} />
            </>
          ) : (
            m("templates.builtIn")
          )}
        </p>
        {entry.channel === "email" ? (
          <TextField label={m("templates.subject")} value={subject} onChange={(e) => setSubject(e.target.value)} error={errors.subject} disabled={!canEdit} autoComplete="off" />
        ) : null}
        <TextAreaField
          label={m("templates.text")}
          value={text}
          rows={10}
          onChange={(e) => setText(e.target.value)}
          error={errors.text}
          hint={placeholders ? m("templates.placeholders", { list: placeholders, required: entry.required.map((n) => `{${n}}`).join(" ") || "—", secret: entry.secret.map((n) => `{${n}}`).join(" ") || "—" }) : m("templates.noPlaceholders")}
          disabled={!canEdit}
        />
        {canEdit ? (
          <div className="delivery-form__actions">
            <Button type="submit" variant="primary" disabled={save.isPending}>{save.isPending ? m("delivery.saving") : m("delivery.save")}</Button>
            {entry.rewritten ? (
              <Button onClick={() => (save.reset(), reset.mutate(key))} disabled={reset.isPending}>{m("templates.reset")}</Button>
            ) : null}
          </div>
        ) : null}
        {save.isSuccess ? <p className="ui-alert ui-alert--info" role="status">{m("templates.saved")}</p> : null}
        {reset.isSuccess ? <p className="ui-alert ui-alert--info" role="status">{m("templates.resetDone")}</p> : null}
        {save.isError && !errors.subject && !errors.text ? <p className="ui-alert ui-alert--error" role="alert">{messageOf(save.error, t)}</p> : null}
      </form>
      <Preview entry={entry} subject={subject} text={text} />
    </div>
  );
}

/** Message texts per template, channel and language: read by anyone in the console, rewritten by administrators. */
export function TemplatesScreen() {
  const { lang } = useI18n();
  const m = useMessagingText();
  const trpc = useTRPC();
  const canEdit = useCan("configure");
  const list = useQuery(trpc.console.templates.list.queryOptions());
  const [message, setMessage] = useState("confirm_email_code/email");
  const [locale, setLocale] = useState<"ru" | "en">(lang === "en" ? "en" : "ru");
  const entries = list.data ?? [];
  const messages = [...new Map(entries.map((e) => [`${e.template}/${e.channel}`, e])).values()];
  const entry = entries.find((e) => keyOf(e) === `${message}/${locale}`);
  return (
    <section className="delivery">
      <h1 className="page-title">{m("templates.title")}</h1>
      <p className="muted delivery__intro">{m("templates.intro")}</p>
      <QueryStates query={list} loading={m("outbox.loading")}>
        {() => (
          <>
            <div className="templates__pick">
              <SelectField label={m("templates.message")} value={message} onChange={(e) => setMessage(e.target.value)}>
                {messages.map((e) => (
                  <option key={`${e.template}/${e.channel}`} value={`${e.template}/${e.channel}`}>
                    {m(`template.${e.template}` as TMessagingKey)} · {m(`outbox.channel.${e.channel}`)}
                    {entries.some((x) => x.template === e.template && x.channel === e.channel && x.rewritten) ? ` · ${m("templates.rewrittenMark")}` : ""}
                  </option>
                ))}
              </SelectField>
              <SelectField label={m("delivery.language")} value={locale} onChange={(e) => setLocale(e.target.value as "ru" | "en")}>
                <option value="ru">Русский</option>
                <option value="en">English</option>
              </SelectField>
            </div>
            {entry ? <TemplateEditor key={keyOf(entry)} entry={entry} canEdit={canEdit} /> : null}
          </>
        )}
      </QueryStates>
    </section>
  );
}
