import { DevicesScreen } from "@/components/portal/security/devices-screen";
import "@/components/portal/sections.css";

export const metadata = { title: "Devices · Your account" };

export default function AccountDevicesPage() {
  return <DevicesScreen />;
}
