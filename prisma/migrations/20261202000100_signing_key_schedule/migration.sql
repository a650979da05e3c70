-- A rotated-in key is published before it signs: it signs from signs_from on, and until then only
-- appears in the JWKS, so resource servers that cache the JWKS know it before the first token.
ALTER TABLE "signing_keys" ADD COLUMN "signs_from" TIMESTAMPTZ(3);
UPDATE "signing_keys" SET "signs_from" = "created_at";
ALTER TABLE "signing_keys" ALTER COLUMN "signs_from" SET NOT NULL;
ALTER TABLE "signing_keys" ALTER COLUMN "signs_from" SET DEFAULT CURRENT_TIMESTAMP;
-- A key withdrawn because it may have leaked: never published nor trusted again, whatever the clocks say.
ALTER TABLE "signing_keys" ADD COLUMN "withdrawn_at" TIMESTAMPTZ(3);
