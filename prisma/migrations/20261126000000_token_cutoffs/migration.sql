-- Per-user (and per-session) "tokens issued before this time are invalid": what a session reset,
-- a device removal or a password change leaves behind, read once per user and then held in process.

CREATE TABLE "token_cutoffs" (
    "user_id" TEXT NOT NULL,
    "session_id" TEXT NOT NULL DEFAULT '',
    "not_before" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "token_cutoffs_pkey" PRIMARY KEY ("user_id", "session_id"),
    CONSTRAINT "token_cutoffs_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
