-- Recovery messages an administrator sends: a one-time link to set a new password.
CREATE TABLE "recovery_invites" (
    "token_hash" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "address_hash" TEXT NOT NULL,
    "password_mark" TEXT NOT NULL,
    "by_admin" BOOLEAN NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "recovery_invites_pkey" PRIMARY KEY ("token_hash"),
    CONSTRAINT "recovery_invites_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "recovery_invites_user_id_idx" ON "recovery_invites"("user_id");
