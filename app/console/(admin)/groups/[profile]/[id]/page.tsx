import { GroupDetailScreen } from "@/components/console/groups/group-detail-screen";

export const metadata = { title: "Group · Identity console" };

export default async function GroupPage({ params }: { params: Promise<{ profile: string; id: string }> }) {
  const { profile, id } = await params;
  return <GroupDetailScreen profile={decodeURIComponent(profile)} id={decodeURIComponent(id)} />;
}
