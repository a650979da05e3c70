import { PasswordScreen } from "@/components/portal/password/password-screen";
import "@/components/portal/sections.css";

export const metadata = { title: "Password · Your account" };

export default function AccountPasswordPage() {
  return <PasswordScreen />;
}
