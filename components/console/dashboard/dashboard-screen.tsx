"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { ReactNode } from "react";
import { LoadFailedState, LoadingState } from "../list-parts.tsx";
import { useTRPC } from "../trpc.ts";
import { useDashText } from "./i18n.ts";
import { SignInChart } from "./sign-in-chart.tsx";
import "./dashboard.css";

function Tile({ title, value, href, children }: { title: string; value: ReactNode; href: string; children?: ReactNode }) {
  return (
    <Link href={href} className="dash-tile">
      <span className="dash-tile__title">{title}</span>
      <span className="dash-tile__value">{value}</span>
      {children ? <span className="dash-tile__detail">{children}</span> : null}
    </Link>
  );
}

/** The console's home page: accounts, sign-ins, live sessions, the outbox and the signing key, read at once. */
export function DashboardScreen() {
  const d = useDashText();
  const trpc = useTRPC();
  // Figures of a moment: read again when the page is opened again or the tab comes back, not polled.
  const dash = useQuery(trpc.console.dashboard.get.queryOptions(undefined, { staleTime: 30_000 }));
  let body;
  if (dash.isPending) body = <LoadingState label={d("dash.loading")} />;
  else if (dash.isError) body = <LoadFailedState label={d("dash.loadFailed")} error={dash.error} retryLabel={d("dash.retry")} onRetry={() => void dash.refetch()} />;
  else {
    const { accounts, sessions, outbox, signingKey, signIns } = dash.data;
    const n = (v: number) => v.toLocaleString();
    body = (
      <>
        <div className="dash-tiles">
          <Tile title={d("dash.accounts")} value={n(accounts.total)} href="/console/users">
            {d("dash.accountsNew", { n: n(accounts.created) })} · {d("dash.accountsLocked", { n: n(accounts.locked) })}
          </Tile>
          <Tile title={d("dash.sessions")} value={n(sessions)} href="/console/users">
            {d("dash.sessionsHint")}
          </Tile>
          <Tile title={d("dash.outbox")} value={n(outbox.pending)} href="/console/outbox">
            {d("dash.outboxFailed", { n: n(outbox.failedThisWeek) })}
          </Tile>
          <Tile title={d("dash.key")} value={signingKey ? d("dash.keyAge", { n: n(signingKey.ageDays) }) : d("dash.keyNone")} href="/console/signing-keys">
            {signingKey ? <code>{signingKey.kid}</code> : null}
          </Tile>
        </div>
        <div className="dash-charts">
          <SignInChart id="dash-24h" title={d("dash.signIns24")} buckets={signIns.hours} unit="hour" />
          <SignInChart id="dash-7d" title={d("dash.signIns7")} buckets={signIns.days} unit="day" />
        </div>
        <p>
          <Link href="/console/events?type=user.sign_in_failed" className="user-link">
            {d("dash.eventsLink")} →
          </Link>
        </p>
      </>
    );
  }
  return (
    <section className="clients">
      <h1 className="page-title">{d("dash.title")}</h1>
      {body}
    </section>
  );
}
