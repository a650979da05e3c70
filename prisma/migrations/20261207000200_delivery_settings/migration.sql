-- Message delivery set in the console (environment variables still win per channel), and the
-- message texts administrators rewrote per template, channel and language.
CREATE TABLE "delivery_settings" (
    "id" TEXT NOT NULL,
    "smtp_host" TEXT,
    "smtp_port" INTEGER,
    "smtp_security" TEXT,
    "smtp_username" TEXT,
    "smtp_password" TEXT,
    "mail_from" TEXT,
    "sms_webhook_url" TEXT,
    "sms_webhook_token" TEXT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "delivery_settings_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "message_templates" (
    "template" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "locale" TEXT NOT NULL,
    "subject" TEXT,
    "body" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "message_templates_pkey" PRIMARY KEY ("template","channel","locale")
);
