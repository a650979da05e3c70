-- "Forgot password?" on the sign-in page: the code sent for one login flow (one at a time per flow).
CREATE TABLE "password_recoveries" (
    "flow_id" TEXT NOT NULL,
    "user_id" TEXT,
    "channel" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "code_hash" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "password_recoveries_pkey" PRIMARY KEY ("flow_id"),
    CONSTRAINT "password_recoveries_flow_id_fkey" FOREIGN KEY ("flow_id") REFERENCES "login_flows"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "password_recoveries_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "password_recoveries_user_id_idx" ON "password_recoveries"("user_id");
