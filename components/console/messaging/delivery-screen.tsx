"use client";
import { useMutation, useQuery } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import Link from "next/link";
import { Fragment, useState, type FormEvent, type ReactNode } from "react";
import type { AppRouter } from "@/server/trpc/root";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import { SelectField, TextField } from "../../ui/field.tsx";
import { fieldErrorsOf, messageOf } from "../call-errors.ts";
import { QueryStates } from "../list-parts.tsx";
import { useTRPC } from "../trpc.ts";
import { useCan } from "../viewer.tsx";
import { EmailSettingsForm, SmsSettingsForm } from "./delivery-forms.tsx";
import { useMessagingText } from "./i18n.ts";
import "./messaging.css";

type TSettings = inferRouterOutputs<AppRouter>["console"]["delivery"]["settings"];
type TTestResult = inferRouterOutputs<AppRouter>["console"]["delivery"]["sendTest"];

function ConfiguredBadge({ on }: { on: boolean }) {
  const m = useMessagingText();
  return <span className={`badge ${on ? "badge--on" : "badge--off"}`}>{on ? m("delivery.configured") : m("delivery.notConfigured")}</span>;
}

type TCardProps = { id: string; title: string; rows: [string, string][] | null; unset: string; source: "environment" | "console" | null; form: ReactNode };

/**
 * One channel: what is in force (the server masks the password) and where it comes from, then the
 * console's own settings, which apply whenever the environment does not set the channel.
 */
function TransportCard({ id, title, rows, unset, source, form }: TCardProps) {
  const m = useMessagingText();
  return (
    <section className="delivery-card" aria-labelledby={id}>
      <h2 id={id}>
        {title} <ConfiguredBadge on={!!rows} />
      </h2>
      {source ? <p className="muted">{source === "environment" ? m("delivery.fromEnvironment") : m("delivery.fromConsole")}</p> : null}
      {rows ? (
        <dl>
          {rows.map(([term, value]) => (
            <Fragment key={term}>
              <dt>{term}</dt>
              <dd>{value}</dd>
            </Fragment>
          ))}
        </dl>
      ) : (
        <p className="muted">{unset}</p>
      )}
      {form}
    </section>
  );
}

function TransportCards({ settings: { email, sms, stored } }: { settings: TSettings }) {
  const m = useMessagingText();
  const canEdit = useCan("configure");
  return (
    <div className="delivery__cards">
      <TransportCard
        id="delivery-email"
        title={m("delivery.email")}
        rows={email && [[m("delivery.server"), email.url], [m("delivery.from"), email.from]]}
        unset={m("delivery.emailUnset")}
        source={email?.source ?? null}
        form={<EmailSettingsForm stored={stored.email} canEdit={canEdit} />}
      />
      <TransportCard
        id="delivery-sms"
        title={m("delivery.sms")}
        rows={sms && [[m("delivery.webhook"), sms.url], [m("delivery.token"), sms.bearerToken ? m("delivery.tokenSet") : m("delivery.tokenUnset")]]}
        unset={m("delivery.smsUnset")}
        source={sms?.source ?? null}
        form={<SmsSettingsForm stored={stored.sms} canEdit={canEdit} />}
      />
    </div>
  );
}

/** The outcome in words; a failure shows the transport's own error text. */
function TestOutcome({ result }: { result: TTestResult }) {
  const m = useMessagingText();
  if (result.status === "sent") {
    return (
      <p className="ui-alert ui-alert--info" role="status">
        {m("delivery.sent", { id: result.messageId })} <Link href="/console/outbox">{m("outbox.title")}</Link>
      </p>
    );
  }
  return (
    <p className="ui-alert ui-alert--error" role="alert">
      {m(result.status === "pending" ? "delivery.pending" : "delivery.failed", { error: result.error ?? "" })}
    </p>
  );
}

function TestForm() {
  const { t, lang } = useI18n();
  const m = useMessagingText();
  const trpc = useTRPC();
  const [channel, setChannel] = useState<"email" | "sms">("email");
  const [to, setTo] = useState("");
  const [locale, setLocale] = useState<"ru" | "en">(lang === "en" ? "en" : "ru");
  const send = useMutation(trpc.console.delivery.sendTest.mutationOptions());
  const fieldErrors = send.isError ? fieldErrorsOf(send.error, t) : {};
  const submit = (e: FormEvent) => {
    e.preventDefault();
    send.mutate({ channel, to, locale });
  };
  return (
    <form className="delivery-test" aria-labelledby="delivery-test" onSubmit={submit} noValidate>
      <h2 id="delivery-test">{m("delivery.testTitle")}</h2>
      <div className="delivery-test__row">
        <SelectField label={m("delivery.channel")} value={channel} onChange={(e) => setChannel(e.target.value as "email" | "sms")}>
          <option value="email">{m("outbox.channel.email")}</option>
          <option value="sms">{m("outbox.channel.sms")}</option>
        </SelectField>
        <TextField
          label={channel === "email" ? m("delivery.toEmail") : m("delivery.toPhone")}
          type={channel === "email" ? "email" : "tel"}
          value={to}
          onChange={(e) => setTo(e.target.value)}
          error={fieldErrors.to}
          autoComplete="off"
          required
        />
        <SelectField label={m("delivery.language")} value={locale} onChange={(e) => setLocale(e.target.value as "ru" | "en")}>
          <option value="ru">Русский</option>
          <option value="en">English</option>
        </SelectField>
      </div>
      <div className="delivery-test__actions">
        <Button type="submit" variant="primary" disabled={send.isPending} aria-busy={send.isPending}>
          {send.isPending ? m("delivery.sending") : m("delivery.send")}
        </Button>
      </div>
      {send.data ? <TestOutcome result={send.data} /> : null}
      {send.isError && !fieldErrors.to ? (
        <p className="ui-alert ui-alert--error" role="alert">
          {messageOf(send.error, t)}
        </p>
      ) : null}
    </form>
  );
}

export function DeliveryScreen() {
  const m = useMessagingText();
  const trpc = useTRPC();
  const settings = useQuery(trpc.console.delivery.settings.queryOptions());
  return (
    <section className="delivery">
      <h1 className="page-title">{m("delivery.title")}</h1>
      <p className="muted delivery__intro">{m("delivery.intro")}</p>
      <QueryStates query={settings} loading={m("outbox.loading")}>
        {(data) => <TransportCards settings={data} />}
      </QueryStates>
      <TestForm />
    </section>
  );
}
