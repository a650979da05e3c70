import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { ConsoleHeader } from "@/components/console/console-header";
import { ConsoleViewerProvider } from "@/components/console/viewer";
import { consoleNeedsPasskey, consoleUserName, consoleUserOf, readConsoleSession } from "@/server/auth/console-session";

// Every page under here needs a console role; the sign-in page lives outside this group.
export default async function AdminLayout({ children }: { children: ReactNode }) {
  const admin = await consoleUserOf(await readConsoleSession());
  if (!admin) redirect("/console/sign-in");
  // The policy requires administrators to have a passkey: enrolled in the portal, which stays open to them.
  if (await consoleNeedsPasskey(admin)) redirect("/account/passkeys?for=console");
  return (
    <ConsoleViewerProvider viewer={{ roles: admin.roles, grants: admin.grants }}>
      <ConsoleHeader login={admin.login} name={await consoleUserName(admin)} />
      <main className="console-main">{children}</main>
    </ConsoleViewerProvider>
  );
}
