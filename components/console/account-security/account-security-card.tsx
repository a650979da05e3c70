"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { LoadFailedState, LoadingState, Notice } from "../list-parts.tsx";
import { useTRPC } from "../trpc.ts";
import { Card } from "../user-sessions/card-parts.tsx";
import "./account-security.css";
import { useAccountSecurityText } from "./i18n.ts";
import { PropsEditor } from "./props-editor.tsx";
import { StateSection } from "./state-section.tsx";

/** On the user page: the account's state (unlock, untouchable), whether a security question is set, and its properties. */
export function AccountSecurityCard({ sub }: { sub: string }) {
  const a = useAccountSecurityText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const query = useQuery(trpc.console.accountSecurity.get.queryOptions({ sub }));
  const [notice, notify] = useState<{ text: string; error: boolean } | null>(null);
  const after = () => {
    void queryClient.invalidateQueries(trpc.console.accountSecurity.pathFilter());
    void queryClient.invalidateQueries(trpc.console.events.list.pathFilter());
  };
  let body;
  if (query.isPending) body = <LoadingState label={a("loading")} />;
  else if (query.isError) body = <LoadFailedState label={a("loadFailed")} error={query.error} retryLabel={a("retry")} onRetry={() => void query.refetch()} />;
  else {
    body = (
      <>
        <StateSection sub={sub} data={query.data} notify={notify} after={after} />
        <div className="account-security__section">
          <h3 className="account-security__label">{a("secqsn.label")}</h3>
          <p data-testid="security-question">{query.data.securityQuestion ? a("secqsn.set") : a("secqsn.none")}</p>
        </div>
        <PropsEditor sub={sub} data={query.data} notify={notify} after={after} />
      </>
    );
  }
  return (
    <Card id="account-security-title" title={a("title")}>
      <Notice text={notice?.text} error={notice?.error} />
      {body}
    </Card>
  );
}
