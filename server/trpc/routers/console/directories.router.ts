import { z } from "zod";
import { directoryRuns, listDirectories, syncNow } from "../../../directories/directories-console.service.ts";
import { adminProcedure, consoleReadProcedure, createRouter } from "../../init.ts";

const ZId = z.string().min(1).max(64);

/** Directories in the console: adapters over the directories' console service. */
export const directoriesRouter = createRouter({
  list: consoleReadProcedure.query(() => listDirectories()),

  /** The latest synchronisations of one directory, newest first (a running one with its counts so far). */
  runs: consoleReadProcedure.input(z.strictObject({ id: ZId })).query(({ input }) => directoryRuns(input.id)),

  /** Starts a synchronisation now: incremental, or `full`. */
  syncNow: adminProcedure.input(z.strictObject({ id: ZId, full: z.boolean().default(false) })).mutation(({ input, ctx }) => syncNow(input.id, input.full, ctx.actor)),
});
