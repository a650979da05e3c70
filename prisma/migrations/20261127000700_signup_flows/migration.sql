-- Self sign-up in the browser ({ctx}/register): a flow per sign-up whose registration waits for
-- its codes. It binds the registration to the browser that started it (the hash of its CSRF
-- cookie) and remembers the sign-in flow it came from, so that the application's authorization
-- goes on once the account exists.

CREATE TABLE "signup_flows" (
    "id" TEXT NOT NULL,
    "csrf_hash" TEXT NOT NULL,
    "registration_context" TEXT NOT NULL,
    "login_flow_id" TEXT,
    "client_id" TEXT,
    "step" TEXT NOT NULL DEFAULT 'codes',
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "signup_flows_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "signup_flows_expires_at_idx" ON "signup_flows"("expires_at");
