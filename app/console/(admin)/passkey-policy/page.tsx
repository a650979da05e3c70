import { PasskeyPolicyScreen } from "@/components/console/passkeys/passkey-policy-screen";

export const metadata = { title: "Passkey policy · Identity console" };

export default function PasskeyPolicyPage() {
  return <PasskeyPolicyScreen />;
}
