import { ConsentsScreen } from "@/components/portal/security/consents-screen";
import "@/components/portal/sections.css";

export const metadata = { title: "Consents · Your account" };

export default function AccountConsentsPage() {
  return <ConsentsScreen />;
}
