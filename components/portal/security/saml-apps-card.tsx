"use client";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../trpc.ts";
import { useSecurityText } from "./i18n.ts";

/**
 * The SAML applications the person may open from here (their administrators allowed IdP-initiated
 * sign-on): plain links, since the sign-on is a page of the service, not a call. Nothing when there is none.
 */
export function SamlAppsCard() {
  const s = useSecurityText();
  const trpc = useTRPC();
  const apps = useQuery(trpc.portal.samlApps.queryOptions());
  if (!apps.data?.length) return null;
  return (
    <section className="portal-card" aria-labelledby="saml-apps-title">
      <h2 id="saml-apps-title">{s("saml.title")}</h2>
      <p className="muted">{s("saml.intro")}</p>
      <ul className="saml-apps">
        {apps.data.map((app) => (
          <li key={app.id}>
            <a href={app.url}>{s("saml.open", { name: app.name })}</a>
          </li>
        ))}
      </ul>
    </section>
  );
}
