import { cookies, headers } from "next/headers";
import type { ReactNode } from "react";
import { ConsoleProviders } from "@/components/console/providers";
import { LANG_COOKIE, pickLang } from "@/components/i18n";
import { getConfig } from "@/server/config/config";
import "@/components/ui/ui.css";
import "@/components/app-shell.css";
import "@/components/console/console.css";

export const metadata = { title: "Identity console", robots: { index: false, follow: false } };

// Every console page depends on the request (session, language); prerendering one at build time
// would also read the server's secret key in the build environment.
export const dynamic = "force-dynamic";

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const lang = pickLang((await cookies()).get(LANG_COOKIE)?.value, (await headers()).get("accept-language"));
  return (
    <div className="console" lang={lang}>
      <ConsoleProviders contextPath={getConfig().contextPath} lang={lang}>
        {children}
      </ConsoleProviders>
    </div>
  );
}
