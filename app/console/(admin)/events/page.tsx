import { FILTER_FIELDS, type TEventFilterValues } from "@/components/console/events/event-filter-url";
import { EventsScreen } from "@/components/console/events/events-screen";
import { ZEventFilterInput } from "@/server/audit/events-console.schemas";

export const metadata = { title: "Events · Identity console" };

type TSearch = Record<string, string | string[] | undefined>;

// The filter is the URL's (?sub=…&type=…); a field the server would refuse is dropped and reported,
// so a hand-edited link still shows a page.
export default async function EventsPage({ searchParams }: { searchParams: Promise<TSearch> }) {
  const search = await searchParams;
  const filter: TEventFilterValues = {};
  let invalid = false;
  for (const field of FILTER_FIELDS) {
    const raw = search[field];
    if (raw === undefined || raw === "") continue;
    const parsed = ZEventFilterInput.shape[field].safeParse(raw);
    if (parsed.success && parsed.data) filter[field] = parsed.data;
    else invalid = true;
  }
  return <EventsScreen filter={filter} invalid={invalid} />;
}
