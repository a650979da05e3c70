import { cookies, headers } from "next/headers";
import type { ReactNode } from "react";
import { LANG_COOKIE, pickLang } from "@/components/i18n";
import { PortalHeader } from "@/components/portal/portal-header";
import { PortalNav } from "@/components/portal/portal-nav";
import { PortalProviders } from "@/components/portal/providers";
import { PortalSignIn } from "@/components/portal/portal-sign-in";
import { StepUp } from "@/components/portal/step-up/step-up";
import { portalUserOf, readPortalSession } from "@/server/auth/portal-session";
import { getConfig } from "@/server/config/config";
import "@/components/ui/ui.css";
import "@/components/app-shell.css";
import "@/components/portal/portal.css";

export const metadata = { title: "Your account", robots: { index: false, follow: false } };

// Every portal page depends on the request (session, language).
export const dynamic = "force-dynamic";

/**
 * The self-service portal: any person with an active account. Without a session every portal address
 * shows the sign-in panel in place of the page, so after signing in the visitor is where they asked to
 * be. This is presentation only: every portal procedure checks the session itself (portalProcedure).
 */
export default async function AccountLayout({ children }: { children: ReactNode }) {
  const lang = pickLang((await cookies()).get(LANG_COOKIE)?.value, (await headers()).get("accept-language"));
  const user = await portalUserOf(await readPortalSession());
  return (
    <div className="portal" lang={lang}>
      <PortalProviders contextPath={getConfig().contextPath} lang={lang}>
        {user ? (
          <>
            <PortalHeader name={user.name} sub={user.sub} />
            <div className="portal-body">
              <PortalNav />
              <main className="portal-main">
                <StepUp />
                {children}
              </main>
            </div>
          </>
        ) : (
          <PortalSignIn />
        )}
      </PortalProviders>
    </div>
  );
}
