-- Account security kept beside the account: the security question (the answer only as an argon2id
-- hash), the user's properties (a flat JSON object), and the account's inactivity state. Each is a
-- table of its own, one row per account at most, gone with the account.

CREATE TABLE "security_questions" (
    "user_id" TEXT NOT NULL,
    "question" TEXT NOT NULL,
    "answer_hash" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "security_questions_pkey" PRIMARY KEY ("user_id"),
    CONSTRAINT "security_questions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE TABLE "user_props" (
    "user_id" TEXT NOT NULL,
    "props" JSONB NOT NULL DEFAULT '{}',
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "user_props_pkey" PRIMARY KEY ("user_id"),
    CONSTRAINT "user_props_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- No row: the account is `initial` and was never made untouchable.
CREATE TABLE "account_states" (
    "user_id" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT 'initial',
    "checked_on" TIMESTAMPTZ(3),
    "locked_on" TIMESTAMPTZ(3),
    "untouchable" BOOLEAN NOT NULL DEFAULT false,
    "untouchable_till" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "account_states_pkey" PRIMARY KEY ("user_id"),
    CONSTRAINT "account_states_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "account_states_name_checked_on_idx" ON "account_states"("name", "checked_on");

-- Accounts that signed in before this migration are `active` since their last recorded sign-in.
INSERT INTO "account_states" ("user_id", "name", "checked_on")
SELECT e."subject", 'active', max(e."created_at")
FROM "security_events" e JOIN "users" u ON u."id" = e."subject"
WHERE e."type" = 'user.signed_in'
GROUP BY e."subject";
