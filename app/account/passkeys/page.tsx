import { PasskeysScreen } from "@/components/portal/passkeys/passkeys-screen";
import "@/components/portal/sections.css";
import "@/components/portal/otp/otp.css";

export const metadata = { title: "Passkeys · Your account" };

export default function AccountPasskeysPage() {
  return <PasskeysScreen />;
}
