import { RightsBrowserScreen } from "@/components/console/rights/rights-browser-screen";

export const metadata = { title: "Rights · Identity console" };

export default function RightsPage() {
  return <RightsBrowserScreen />;
}
