import { OtpDevicesScreen } from "@/components/console/otp/otp-devices-screen";

export const metadata = { title: "OTP devices · Identity console" };

export default function OtpDevicesPage() {
  return <OtpDevicesScreen />;
}
