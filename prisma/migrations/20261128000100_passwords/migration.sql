-- The password policy (one row, "default"): the whole policy as validated JSON, so a new rule needs no
-- migration; every process caches it and drops it through the change bus when it changes.
CREATE TABLE "password_policies" (
    "id" TEXT NOT NULL,
    "policy" JSONB NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "password_policies_pkey" PRIMARY KEY ("id")
);

-- The argon2id hashes of a user's passwords, newest first by set_at: the current one and the previous
-- ones the policy's history keeps (in_password_history); the newest row's set_at is when the password
-- was last changed (too_young).
CREATE TABLE "password_history" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "set_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "password_history_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "password_history_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE INDEX "password_history_user_id_set_at_idx" ON "password_history"("user_id", "set_at");
