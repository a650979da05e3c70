-- An administrator's link may now enrol a passkey instead of setting a password.
ALTER TABLE "recovery_invites" ADD COLUMN "purpose" TEXT NOT NULL DEFAULT 'password';

-- A self sign-up may end with a passkey instead of a password: the account, once its codes are
-- confirmed, waits for its passkey in the browser that signed up.
ALTER TABLE "signup_flows" ADD COLUMN "with_passkey" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "signup_flows" ADD COLUMN "user_id" TEXT;
