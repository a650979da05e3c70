import { ProfileScreen } from "@/components/portal/profile/profile-screen";
import "@/components/portal/sections.css";

export const metadata = { title: "Profile · Your account" };

export default function AccountProfilePage() {
  return <ProfileScreen />;
}
