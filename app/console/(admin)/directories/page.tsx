import { DirectoriesScreen } from "@/components/console/directories/directories-screen";

export const metadata = { title: "Directories · Identity console" };

export default function DirectoriesPage() {
  return <DirectoriesScreen />;
}
