"use client";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";
import { useProvidersText } from "./i18n.ts";

type TResult = inferRouterOutputs<AppRouter>["console"]["providers"]["testDiscovery"];

/** What "test discovery" found, or why it failed, announced to assistive tools as it arrives. */
export function DiscoveryResult({ result, error }: { result?: TResult; error?: string }) {
  const p = useProvidersText();
  if (!result && !error) return null;
  if (error || (result && !result.ok)) {
    return (
      <p className="ui-alert ui-alert--error fp-discovery__result" role="status">
        {p("discovery.failed", { error: error ?? (result && !result.ok ? result.error : "") })}
      </p>
    );
  }
  if (!result?.ok) return null;
  const f = result.found;
  const rows: [string, string | undefined][] = [
    [p("discovery.issuer"), f.issuer],
    [p("form.authorization"), f.authorizationEndpoint],
    [p("form.token"), f.tokenEndpoint],
    [p("form.userinfo"), f.userinfoEndpoint],
    [p("form.jwks"), f.jwksUri],
    [p("discovery.scopes"), f.scopesSupported?.join(" ")],
  ];
  return (
    <div className="fp-discovery__result" role="status">
      <p className="ui-alert">{p("discovery.ok")}</p>
      <dl className="fp-discovery__found">
        {rows.filter(([, v]) => v).map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>
              <code>{v}</code>
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
