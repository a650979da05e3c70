import { DeliveryScreen } from "@/components/console/messaging/delivery-screen";

export const metadata = { title: "Delivery · Identity console" };

export default function DeliveryPage() {
  return <DeliveryScreen />;
}
