-- The external account a sign-in came back with while it waits for its person to link it (password)
-- or to create an account: sealed, as it carries the provider's tokens; it goes with the flow.
ALTER TABLE "login_flows" ADD COLUMN "external_identity" TEXT;
