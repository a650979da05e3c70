import { SecurityQuestionScreen } from "@/components/portal/security-question/security-question-screen";
import "@/components/portal/sections.css";

export const metadata = { title: "Security question · Your account" };

export default function AccountSecurityQuestionPage() {
  return <SecurityQuestionScreen />;
}
