import { redirect } from "next/navigation";
import { SignInForm } from "@/components/console/sign-in-form";
import { consoleUserOf, readConsoleSession } from "@/server/auth/console-session";

export const metadata = { title: "Sign in · Identity console" };

export default async function SignInPage() {
  if (await consoleUserOf(await readConsoleSession())) redirect("/console/clients");
  return <SignInForm />;
}
