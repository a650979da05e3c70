-- QR sign-in: a login flow waits for a user signed in on another device to confirm it. Only the
-- code's hash is kept; a flow has at most one code at a time, and goes with its flow.

CREATE TABLE "qr_sign_ins" (
    "id" TEXT NOT NULL,
    "flow_id" TEXT NOT NULL,
    "code_hash" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'waiting',
    "user_id" TEXT,
    "ip" TEXT,
    "user_agent" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "decided_at" TIMESTAMPTZ(3),
    CONSTRAINT "qr_sign_ins_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "qr_sign_ins_flow_id_fkey" FOREIGN KEY ("flow_id") REFERENCES "login_flows"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "qr_sign_ins_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "qr_sign_ins_flow_id_key" ON "qr_sign_ins"("flow_id");
CREATE UNIQUE INDEX "qr_sign_ins_code_hash_key" ON "qr_sign_ins"("code_hash");
