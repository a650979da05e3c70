import { ProvidersScreen } from "@/components/console/providers/providers-screen";

export const metadata = { title: "External providers · Identity console" };

export default function ProvidersPage() {
  return <ProvidersScreen />;
}
