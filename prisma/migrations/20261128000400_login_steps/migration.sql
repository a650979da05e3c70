-- A sign-in can take more than one step (a second factor, a password change an administrator asked
-- for). The flow remembers the methods the person has already passed (amr values: pwd, otp, qr), so
-- the session it ends in says how the person signed in.

ALTER TABLE "login_flows" ADD COLUMN "amr" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
