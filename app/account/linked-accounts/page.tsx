import { LinkedAccountsScreen } from "@/components/portal/linked/linked-accounts-screen";
import "@/components/portal/sections.css";

export const metadata = { title: "Linked accounts · Your account" };

export default function AccountLinkedAccountsPage() {
  return <LinkedAccountsScreen />;
}
