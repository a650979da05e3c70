import { SamlScreen } from "@/components/console/saml/saml-screen";

export const metadata = { title: "SAML applications · Identity console" };

export default function SamlPage() {
  return <SamlScreen />;
}
