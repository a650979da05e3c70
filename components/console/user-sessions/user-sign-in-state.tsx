"use client";
import { AccountSecurityCard } from "../account-security/account-security-card.tsx";
import "../events/events.css";
import { UserOtpCard } from "../otp/user-otp-card.tsx";
import { UserPasskeysCard } from "../passkeys/user-passkeys-card.tsx";
import { UserConsentsCard } from "./user-consents-card.tsx";
import { UserDevicesCard } from "./user-devices-card.tsx";
import { UserEventsCard } from "./user-events-card.tsx";
import "./user-sessions.css";

/** Below a user's attributes: where they are signed in, what they allowed, and what happened lately. */
export function UserSignInState({ sub }: { sub: string }) {
  return (
    <div className="user-sign-in-state">
      <AccountSecurityCard sub={sub} />
      <UserDevicesCard sub={sub} />
      <UserOtpCard sub={sub} />
      <UserPasskeysCard sub={sub} />
      <UserConsentsCard sub={sub} />
      <UserEventsCard sub={sub} />
    </div>
  );
}
