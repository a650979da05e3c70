import { ProfilesScreen } from "@/components/console/groups/profiles-screen";

export const metadata = { title: "Group profiles · Identity console" };

export default function GroupProfilesPage() {
  return <ProfilesScreen />;
}
