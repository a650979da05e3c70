"use client";
import type { ReactNode } from "react";
import type { TConsoleClient } from "../trpc.ts";
import { CopyButton } from "./copy-button.tsx";
import { useClientsText, type TClientsKey } from "./i18n.ts";

export type TEndpoints = { issuer: string; discovery: string; authorization: string; token: string; userinfo: string; jwks: string; endSession: string };

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="app-section" aria-labelledby={id}>
      <h2 id={id} className="app-section__title">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** A value to copy: its label, the value as code, a copy button named after the label. */
function CopyRow({ label, value }: { label: string; value: string }) {
  return (
    <div className="app-copy">
      <dt>{label}</dt>
      <dd>
        <code>{value}</code>
        <CopyButton value={value} what={label} />
      </dd>
    </div>
  );
}

function Codes({ values }: { values: string[] }) {
  const c = useClientsText();
  if (values.length === 0) return <span className="muted">{c("page.none")}</span>;
  return (
    <span className="scope-list">
      {values.map((v) => (
        <code key={v} className="scope">
          {v}
        </code>
      ))}
    </span>
  );
}

export function CredentialsSection({ client }: { client: TConsoleClient }) {
  const c = useClientsText();
  const confidential = client.type === "confidential";
  return (
    <Section id="app-credentials" title={c("page.credentials")}>
      <dl className="app-facts">
        <CopyRow label={c("page.clientId")} value={client.id} />
        <Fact label={c("page.authMethod")}>{c(confidential ? "page.authSecret" : "page.authNone")}</Fact>
      </dl>
      {confidential ? <p className="muted">{c("page.secretHint")}</p> : null}
    </Section>
  );
}

const ENDPOINTS: [keyof TEndpoints, TClientsKey][] = [
  ["issuer", "page.issuer"],
  ["discovery", "page.discovery"],
  ["authorization", "page.authorization"],
  ["token", "page.token"],
  ["userinfo", "page.userinfo"],
  ["jwks", "page.jwks"],
  ["endSession", "page.endSession"],
];

export function EndpointsSection({ endpoints, signsIn }: { endpoints: TEndpoints; signsIn: boolean }) {
  const c = useClientsText();
  // A machine-to-machine application needs the issuer and the token endpoint, nothing a browser visits.
  const shown = signsIn ? ENDPOINTS : ENDPOINTS.filter(([k]) => ["issuer", "discovery", "token"].includes(k));
  return (
    <Section id="app-endpoints" title={c("page.endpoints")}>
      <dl className="app-facts">
        {shown.map(([key, label]) => (
          <CopyRow key={key} label={c(label)} value={endpoints[key]} />
        ))}
      </dl>
    </Section>
  );
}

/** A fact of the application, read but not copied. */
function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="app-copy">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

export function SettingsSection({ client, labels }: { client: TConsoleClient; labels: { grants: string; redirects: string; scopes: string; userScopes: string } }) {
  const c = useClientsText();
  const signsIn = client.grantTypes.includes("authorization_code");
  return (
    <Section id="app-settings" title={c("page.settings")}>
      <dl className="app-facts">
        <Fact label={labels.grants}>
          <Codes values={client.grantTypes} />
        </Fact>
        {signsIn ? (
          <Fact label={labels.redirects}>
            <Codes values={client.redirectUris} />
          </Fact>
        ) : null}
        {signsIn ? (
          <Fact label={labels.userScopes}>
            <Codes values={client.userScopes} />
          </Fact>
        ) : null}
        {client.type === "confidential" ? (
          <Fact label={labels.scopes}>
            <Codes values={client.scopes} />
          </Fact>
        ) : null}
      </dl>
    </Section>
  );
}
