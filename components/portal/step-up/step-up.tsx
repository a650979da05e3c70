"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { usePathname } from "next/navigation";
import { useEffect, useState } from "react";
import { AUTH_APPS } from "@/server/auth/apps";
import { startSignIn } from "../../auth-client.ts";
import { useContextPath } from "../../context-path.tsx";
import { Button } from "../../ui/button.tsx";
import { Dialog } from "../../ui/dialog.tsx";
import { appCodeOf, REAUTH_REQUIRED } from "../portal-errors.ts";
import { currentPage } from "../portal-sign-in.tsx";
import { useTRPC } from "../trpc.ts";
import { useStepUpText } from "./i18n.ts";

/** The pages with sensitive changes, and how their notice names them, said before the person types anything. */
const SENSITIVE_PAGES = { "/account/password": "notice", "/account/two-factor": "notice", "/account/security-question": "notice", "/account/profile": "noticeContacts", "/account/linked-accounts": "notice" } as const;

function noticeOf(pathname: string): (typeof SENSITIVE_PAGES)[keyof typeof SENSITIVE_PAGES] | undefined {
  return Object.entries(SENSITIVE_PAGES).find(([page]) => pathname === page || pathname.startsWith(`${page}/`))?.[1];
}

/** Signs in again with prompt=login (the password, and the code when the second factor is on), back to this page. */
function useSignInAgain() {
  const contextPath = useContextPath();
  const [pending, setPending] = useState(false);
  const [failed, setFailed] = useState(false);
  const signInAgain = () => {
    setPending(true);
    setFailed(false);
    startSignIn(contextPath, AUTH_APPS.portal.clientId, currentPage(), { prompt: "login" }).catch(() => {
      setFailed(true);
      setPending(false);
    });
  };
  return { pending, failed, signInAgain };
}

/** Whether the sign-in is still recent enough for sensitive changes, re-evaluated when the server's window closes. */
function useRecentSignIn(): boolean {
  const trpc = useTRPC();
  const status = useQuery(trpc.portal.recentSignIn.queryOptions());
  const [now, setNow] = useState(() => Date.now());
  const closesAt = status.data ? status.dataUpdatedAt + status.data.secondsLeft * 1000 : Infinity;
  useEffect(() => {
    if (!Number.isFinite(closesAt)) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.max(0, closesAt - Date.now()) + 500);
    return () => clearTimeout(timer);
  }, [closesAt]);
  return now < closesAt;
}

/**
 * Step-up in the portal. On a sensitive page whose sign-in has grown too old, a notice offers to
 * confirm before anything is typed; and whenever the server refuses a change with
 * portal.reauth_required (the check that counts), a "Confirm it's you" dialog sends the browser
 * through the service's sign-in with prompt=login and back to the same page.
 */
export function StepUp() {
  const s = useStepUpText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const pathname = usePathname();
  const recent = useRecentSignIn();
  const [open, setOpen] = useState(false);
  const { pending, failed, signInAgain } = useSignInAgain();
  useEffect(
    () =>
      queryClient.getMutationCache().subscribe((event) => {
        if (event.type !== "updated" || event.action.type !== "error" || appCodeOf(event.action.error) !== REAUTH_REQUIRED) return;
        setOpen(true);
        // The server's word over the page's timer (a clock that drifted, a session from before auth_time was kept).
        void queryClient.invalidateQueries({ queryKey: trpc.portal.recentSignIn.queryKey() });
      }),
    [queryClient, trpc],
  );
  const notice = noticeOf(pathname);
  return (
    <>
      {notice && !recent ? (
        <div className="ui-alert ui-alert--info step-up-notice" role="status">
          <p>{s(notice)}</p>
          <Button onClick={signInAgain} disabled={pending} aria-busy={pending}>
            {pending ? s("pending") : s("confirmNow")}
          </Button>
        </div>
      ) : null}
      <Dialog
        open={open}
        title={s("title")}
        onClose={() => setOpen(false)}
        footer={
          <>
            <Button onClick={() => setOpen(false)} disabled={pending}>
              {s("cancel")}
            </Button>
            <Button variant="primary" onClick={signInAgain} disabled={pending} aria-busy={pending}>
              {pending ? s("pending") : s("confirm")}
            </Button>
          </>
        }
      >
        <p>{s("body")}</p>
        {failed ? (
          <p className="ui-alert ui-alert--error" role="alert">
            {s("failed")}
          </p>
        ) : null}
      </Dialog>
    </>
  );
}
