import { EventsScreen } from "@/components/portal/security/events-screen";
import "@/components/portal/sections.css";

export const metadata = { title: "Events · Your account" };

export default function AccountEventsPage() {
  return <EventsScreen />;
}
