import { UsersScreen } from "@/components/console/users/users-screen";

export const metadata = { title: "Users · Identity console" };

export default function UsersPage() {
  return <UsersScreen />;
}
