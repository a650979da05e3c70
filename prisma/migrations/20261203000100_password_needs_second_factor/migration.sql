-- A password shorter than the single-factor minimum, accepted because the second factor was on: when
-- the second factor is turned off, the account is asked for a new password.
ALTER TABLE "user_auth_modes" ADD COLUMN "password_needs_second_factor" BOOLEAN NOT NULL DEFAULT false;
