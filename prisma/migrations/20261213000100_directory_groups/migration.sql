-- Group mapping of a directory: its settings, the groups it made here (by their entries' stable
-- ids), which memberships are the directory's (a sync removes only those, never one made by hand),
-- and a run's group counts.
ALTER TABLE "directories" ADD COLUMN "group_map" JSONB;

CREATE TABLE "directory_groups" (
    "group_id" TEXT NOT NULL,
    "directory_id" TEXT NOT NULL,
    "external_id" TEXT NOT NULL,
    "dn" TEXT NOT NULL,
    "synced_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "directory_groups_pkey" PRIMARY KEY ("group_id")
);

CREATE UNIQUE INDEX "directory_groups_directory_id_external_id_key" ON "directory_groups"("directory_id", "external_id");

-- A group deleted here takes its mapping with it (the next run makes it again); a directory deleted, its mappings.
ALTER TABLE "directory_groups" ADD CONSTRAINT "directory_groups_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "directory_groups" ADD CONSTRAINT "directory_groups_directory_id_fkey" FOREIGN KEY ("directory_id") REFERENCES "directories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Null: made by hand (the API, the console, the import). A directory deleted leaves its memberships as hand-made ones.
ALTER TABLE "group_members" ADD COLUMN "directory_id" TEXT;
ALTER TABLE "group_members" ADD CONSTRAINT "group_members_directory_id_fkey" FOREIGN KEY ("directory_id") REFERENCES "directories"("id") ON DELETE SET NULL ON UPDATE CASCADE;
CREATE INDEX "group_members_directory_id_group_id_idx" ON "group_members"("directory_id", "group_id") WHERE "directory_id" IS NOT NULL;

-- A group's member DNs are looked up among the directory's accounts, whatever case each side spells them in.
CREATE INDEX "directory_accounts_directory_id_lower_dn_idx" ON "directory_accounts"("directory_id", lower("dn"));

ALTER TABLE "directory_sync_runs" ADD COLUMN "groups_created" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "directory_sync_runs" ADD COLUMN "groups_updated" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "directory_sync_runs" ADD COLUMN "members_added" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "directory_sync_runs" ADD COLUMN "members_removed" INTEGER NOT NULL DEFAULT 0;
