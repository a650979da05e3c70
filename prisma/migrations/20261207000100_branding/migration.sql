-- The look of the server-rendered pages (sign-in, consent, sign-up, recovery), set in the console or
-- the import document: one row ("default"); a NULL column keeps the built-in look. The logo is a
-- PNG, JPEG or WebP image of at most 100 KB, kept here so that every process serves the same bytes
-- from its own origin; logo_version names them in the logo's URL. Every process caches the row and
-- drops it through the change bus when it changes.
CREATE TABLE "branding" (
    "id" TEXT NOT NULL,
    "product_name" TEXT,
    "accent_colour" TEXT,
    "terms_url" TEXT,
    "privacy_url" TEXT,
    "logo" BYTEA,
    "logo_type" TEXT,
    "logo_version" TEXT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "branding_pkey" PRIMARY KEY ("id")
);
