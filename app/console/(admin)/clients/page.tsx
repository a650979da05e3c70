import { ClientsScreen } from "@/components/console/clients-screen";

export const metadata = { title: "Client applications · Identity console" };

export default function ClientsPage() {
  return <ClientsScreen />;
}
