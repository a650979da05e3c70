import { Button } from "./ui/button.tsx";

/**
 * Sign-out as a plain form: the server ends the app's session and sends the browser on to the
 * service's RP-initiated logout, which ends the sign-in session too. A POST, so that no link or
 * image elsewhere can sign anyone out.
 */
export function SignOutButton({ contextPath, clientId, label }: { contextPath: string; clientId: string; label: string }) {
  return (
    <form method="post" action={`${contextPath}/api/auth/signout/${clientId}`} className="sign-out-form">
      <Button type="submit" size="sm">
        {label}
      </Button>
    </form>
  );
}
