import { PasswordPolicyScreen } from "@/components/console/passwords/password-policy-screen";

export const metadata = { title: "Password policy · Identity console" };

export default function PasswordPolicyPage() {
  return <PasswordPolicyScreen />;
}
