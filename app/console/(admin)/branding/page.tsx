import { BrandingScreen } from "@/components/console/branding/branding-screen";

export const metadata = { title: "Branding · Identity console" };

export default function BrandingPage() {
  return <BrandingScreen />;
}
