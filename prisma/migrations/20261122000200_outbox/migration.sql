-- Outbox of e-mail and SMS messages (confirmation codes and console test messages).

CREATE TABLE "outbox_messages" (
    "id" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "recipient" TEXT NOT NULL,
    "subject" TEXT,
    "body_sealed" TEXT NOT NULL,
    "locale" TEXT NOT NULL,
    "template" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "next_attempt_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMPTZ(3),
    "user_id" TEXT,
    "purpose" TEXT NOT NULL,
    CONSTRAINT "outbox_messages_pkey" PRIMARY KEY ("id")
);
-- The worker's claim: due pending rows in order of due time.
CREATE INDEX "outbox_messages_status_next_attempt_at_idx" ON "outbox_messages"("status", "next_attempt_at");
-- The console's list, newest first, with and without a status filter (keyset on created_at, id).
CREATE INDEX "outbox_messages_created_at_id_idx" ON "outbox_messages"("created_at", "id");
CREATE INDEX "outbox_messages_status_created_at_id_idx" ON "outbox_messages"("status", "created_at", "id");
