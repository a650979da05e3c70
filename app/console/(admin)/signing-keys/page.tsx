import { SigningKeysScreen } from "@/components/console/keys/signing-keys-screen";

export const metadata = { title: "Signing keys · Identity console" };

export default function SigningKeysPage() {
  return <SigningKeysScreen />;
}
