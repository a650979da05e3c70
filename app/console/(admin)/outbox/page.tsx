import { OutboxScreen } from "@/components/console/messaging/outbox-screen";
import { ZOutboxStatus } from "@/server/messaging/messaging.schemas";

export const metadata = { title: "Outbox · Identity console" };

// The status filter is part of the URL (?status=failed); anything else in it means "all".
export default async function OutboxPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const status = ZOutboxStatus.safeParse((await searchParams).status);
  return <OutboxScreen status={status.success ? status.data : undefined} />;
}
