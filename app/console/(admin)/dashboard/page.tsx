import { DashboardScreen } from "@/components/console/dashboard/dashboard-screen";

export const metadata = { title: "Overview · Identity console" };

export default function DashboardPage() {
  return <DashboardScreen />;
}
