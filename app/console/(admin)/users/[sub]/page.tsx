import { UserDetailScreen } from "@/components/console/users/user-detail-screen";

export const metadata = { title: "User · Identity console" };

export default async function UserPage({ params }: { params: Promise<{ sub: string }> }) {
  const { sub } = await params;
  return <UserDetailScreen sub={decodeURIComponent(sub)} />;
}
