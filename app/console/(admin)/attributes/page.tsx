import { AttributesScreen } from "@/components/console/attributes/attributes-screen";

export const metadata = { title: "Attributes · Identity console" };

export default function AttributesPage() {
  return <AttributesScreen />;
}
