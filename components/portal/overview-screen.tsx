"use client";
import { useQuery } from "@tanstack/react-query";
import { Button } from "../ui/button.tsx";
import { usePortalText } from "./i18n.ts";
import { useTRPC, type TOverview } from "./trpc.ts";

/** 7XXXXXXXXXX as people read it: +7 916 123-45-67. */
export function formatPhone(stored: string): string {
  const m = /^7(\d{3})(\d{3})(\d{2})(\d{2})$/.exec(stored);
  return m ? `+7 ${m[1]} ${m[2]}-${m[3]}-${m[4]}` : stored;
}

function Contact({ value, display, testId }: { value: TOverview["email"]; display: (v: string) => string; testId: string }) {
  const t = usePortalText();
  if (!value) return <span className="muted">{t("overview.none")}</span>;
  return (
    <>
      <span data-testid={testId}>{display(value.value)}</span>
      <span className={`badge ${value.verified ? "badge--on" : "badge--warn"}`} data-testid={`${testId}-state`}>
        {value.verified ? t("overview.confirmed") : t("overview.unconfirmed")}
      </span>
    </>
  );
}

function Facts({ me }: { me: TOverview }) {
  const t = usePortalText();
  const name = [me.familyName, me.givenName, me.middleName].filter(Boolean).join(" ");
  return (
    <dl className="portal-facts">
      <dt>{t("overview.sub")}</dt>
      <dd className="mono" data-testid="overview-sub">
        {me.sub}
      </dd>
      <dt>{t("overview.name")}</dt>
      <dd data-testid="overview-name">{name || <span className="muted">{t("overview.none")}</span>}</dd>
      <dt>{t("overview.email")}</dt>
      <dd>
        <Contact value={me.email} display={(v) => v} testId="overview-email" />
      </dd>
      <dt>{t("overview.phone")}</dt>
      <dd>
        <Contact value={me.phone} display={formatPhone} testId="overview-phone" />
      </dd>
    </dl>
  );
}

/** The signed-in person's account at a glance: id, name, and each contact with whether it is confirmed. */
export function OverviewScreen() {
  const t = usePortalText();
  const trpc = useTRPC();
  const me = useQuery(trpc.portal.me.queryOptions());
  return (
    <>
      <h1 className="page-title">{t("overview.title")}</h1>
      <section className="portal-card" aria-busy={me.isPending}>
        {me.isPending ? (
          <p className="state state--loading" role="status">
            <span className="spinner" aria-hidden="true" />
            {t("overview.loading")}
          </p>
        ) : me.isError ? (
          <div className="state">
            <p role="alert">{t("overview.failed")}</p>
            <Button onClick={() => me.refetch()}>{t("overview.retry")}</Button>
          </div>
        ) : (
          <Facts me={me.data} />
        )}
      </section>
    </>
  );
}
