import { ConsentsScreen } from "@/components/portal/security/consents-screen";
import { SamlAppsCard } from "@/components/portal/security/saml-apps-card";
import "@/components/portal/sections.css";

export const metadata = { title: "Consents · Your account" };

export default function AccountConsentsPage() {
  return (
    <>
      <ConsentsScreen />
      <SamlAppsCard />
    </>
  );
}
