import { OverviewScreen } from "@/components/portal/overview-screen";

export const metadata = { title: "Overview · Your account" };

export default function AccountOverviewPage() {
  return <OverviewScreen />;
}
