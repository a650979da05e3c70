import { GroupsScreen } from "@/components/console/groups/groups-screen";

export const metadata = { title: "Groups · Identity console" };

export default function GroupsPage() {
  return <GroupsScreen />;
}
