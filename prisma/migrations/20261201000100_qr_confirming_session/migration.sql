-- A QR sign-in inherits when and how the confirming session signed in: the waiting browser's new
-- session is never fresher, nor stronger, than the one that vouched for it.
ALTER TABLE "qr_sign_ins" ADD COLUMN "auth_time" TIMESTAMPTZ(3);
ALTER TABLE "qr_sign_ins" ADD COLUMN "amr" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
