import { ClientPageScreen } from "@/components/console/clients/client-page";

export const metadata = { title: "Application · Identity console" };

export default async function ClientPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ClientPageScreen id={decodeURIComponent(id)} />;
}
