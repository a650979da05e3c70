import { redirect } from "next/navigation";
import { ConsoleSignIn, type TSignInReason } from "@/components/console/console-sign-in";
import { consoleUserOf, readConsoleSession } from "@/server/auth/console-session";

export const metadata = { title: "Sign in · Identity console" };

type TProps = { searchParams: Promise<{ error?: string | string[] }> };

/**
 * The console's sign-in: straight on to the service's own sign-in page, or, when there is something
 * to say, that and a button. `error=not_admin` comes from the
 * console's admission (server/auth/console-admission.ts), any other `error` from next-auth; a session
 * that no longer admits its holder (lock, lost role, signed out everywhere) is told apart too.
 */
export default async function SignInPage({ searchParams }: TProps) {
  const session = await readConsoleSession();
  if (await consoleUserOf(session)) redirect("/console/clients");
  const { error } = await searchParams;
  const reason: TSignInReason = error === "not_admin" ? "not_admin" : error ? "failed" : session ? "ended" : null;
  return <ConsoleSignIn reason={reason} />;
}
