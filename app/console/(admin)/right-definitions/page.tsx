import { DefinitionsScreen } from "@/components/console/rights/definitions-screen";

export const metadata = { title: "Right definitions · Identity console" };

export default function RightDefinitionsPage() {
  return <DefinitionsScreen />;
}
