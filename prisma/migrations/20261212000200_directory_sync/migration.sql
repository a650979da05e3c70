-- Synchronised directories: their schedule and policies, which accounts the directory has disabled,
-- and a report per run (at most one running per directory).
ALTER TABLE "directories" ADD COLUMN "sync_interval_s" INTEGER NOT NULL DEFAULT 900;
ALTER TABLE "directories" ADD COLUMN "missing_policy" TEXT NOT NULL DEFAULT 'lock';
ALTER TABLE "directories" ADD COLUMN "change_attribute" TEXT NOT NULL DEFAULT 'modifyTimestamp';
ALTER TABLE "directories" ADD COLUMN "high_water" TEXT;
ALTER TABLE "directory_accounts" ADD COLUMN "disabled" BOOLEAN NOT NULL DEFAULT false;

CREATE TABLE "directory_sync_runs" (
    "id" TEXT NOT NULL,
    "directory_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'running',
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "heartbeat_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),
    "searches" INTEGER NOT NULL DEFAULT 0,
    "seen" INTEGER NOT NULL DEFAULT 0,
    "created" INTEGER NOT NULL DEFAULT 0,
    "updated" INTEGER NOT NULL DEFAULT 0,
    "locked" INTEGER NOT NULL DEFAULT 0,
    "unlocked" INTEGER NOT NULL DEFAULT 0,
    "deleted" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "failures" JSONB NOT NULL DEFAULT '[]',
    "error" TEXT,
    CONSTRAINT "directory_sync_runs_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "directory_sync_runs_directory_id_started_at_idx" ON "directory_sync_runs"("directory_id", "started_at");
-- One running synchronisation per directory, across every instance.
CREATE UNIQUE INDEX "directory_sync_runs_one_running" ON "directory_sync_runs"("directory_id") WHERE "status" = 'running';

ALTER TABLE "directory_sync_runs" ADD CONSTRAINT "directory_sync_runs_directory_id_fkey" FOREIGN KEY ("directory_id") REFERENCES "directories"("id") ON DELETE CASCADE ON UPDATE CASCADE;
