import { ClientsScreen } from "@/components/console/clients-screen";
import { ZClientId } from "@/server/clients/clients.schemas";

export const metadata = { title: "Client applications · Identity console" };

export default async function ClientsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { deleted } = await searchParams;
  // Only an id is echoed back ("Application … deleted."); anything else in a hand-made link is ignored.
  const id = ZClientId.safeParse(deleted);
  return <ClientsScreen deleted={id.success ? id.data : undefined} />;
}
