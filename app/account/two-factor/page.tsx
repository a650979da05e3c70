import { TwoFactorScreen } from "@/components/portal/otp/two-factor-screen";
import "@/components/portal/sections.css";
import "@/components/portal/otp/otp.css";

export const metadata = { title: "Two-factor sign-in · Your account" };

export default function AccountTwoFactorPage() {
  return <TwoFactorScreen />;
}
