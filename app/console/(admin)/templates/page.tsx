import { TemplatesScreen } from "@/components/console/messaging/templates-screen";

export const metadata = { title: "Message templates · Identity console" };

export default function TemplatesPage() {
  return <TemplatesScreen />;
}
