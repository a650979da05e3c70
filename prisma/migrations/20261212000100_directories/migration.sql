-- Directories (LDAP, Active Directory) whose people sign in here, and which account each entry is.
CREATE TABLE "directories" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "url" TEXT NOT NULL,
    "start_tls" BOOLEAN NOT NULL DEFAULT true,
    "ca_cert" TEXT,
    "bind_dn" TEXT NOT NULL,
    "bind_password" TEXT NOT NULL,
    "base_dn" TEXT NOT NULL,
    "user_filter" TEXT NOT NULL,
    "login_attribute" TEXT NOT NULL,
    "id_attribute" TEXT NOT NULL,
    "disabled_filter" TEXT,
    "attribute_map" JSONB NOT NULL DEFAULT '[]',
    "mode" TEXT NOT NULL DEFAULT 'on_demand',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "directories_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "directory_accounts" (
    "user_id" TEXT NOT NULL,
    "directory_id" TEXT NOT NULL,
    "external_id" TEXT NOT NULL,
    "dn" TEXT NOT NULL,
    "synced_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "directory_accounts_pkey" PRIMARY KEY ("user_id")
);

CREATE UNIQUE INDEX "directory_accounts_directory_id_external_id_key" ON "directory_accounts"("directory_id", "external_id");

ALTER TABLE "directory_accounts" ADD CONSTRAINT "directory_accounts_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "directory_accounts" ADD CONSTRAINT "directory_accounts_directory_id_fkey" FOREIGN KEY ("directory_id") REFERENCES "directories"("id") ON DELETE CASCADE ON UPDATE CASCADE;
