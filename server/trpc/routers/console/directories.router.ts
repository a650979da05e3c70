import { z } from "zod";
import { createDirectory, deleteDirectory, directoryRuns, getDirectorySettings, listDirectories, syncNow, testConnection, updateDirectory } from "../../../directories/directories-console.service.ts";
import { ZDirectoryConsole } from "../../../directories/directory.schemas.ts";
import { adminProcedure, consoleReadProcedure, createRouter } from "../../init.ts";

const ZId = z.string().min(1).max(64);

/** Directories in the console: adapters over the directories' console service. */
export const directoriesRouter = createRouter({
  list: consoleReadProcedure.query(() => listDirectories()),

  /** The latest synchronisations of one directory, newest first (a running one with its counts so far). */
  runs: consoleReadProcedure.input(z.strictObject({ id: ZId })).query(({ input }) => directoryRuns(input.id)),

  /** Starts a synchronisation now: incremental, or `full`. */
  syncNow: adminProcedure.input(z.strictObject({ id: ZId, full: z.boolean().default(false) })).mutation(({ input, ctx }) => syncNow(input.id, input.full, ctx.actor)),

  /** One directory's settings, to edit (never its bind password; whether it has a CA). */
  get: consoleReadProcedure.input(z.strictObject({ id: ZId })).query(({ input }) => getDirectorySettings(input.id)),

  create: adminProcedure.input(ZDirectoryConsole).mutation(({ input, ctx }) => createDirectory(input, ctx.actor)),

  /** Saves every setting at once; an empty bind password keeps the stored one. */
  update: adminProcedure.input(ZDirectoryConsole).mutation(({ input, ctx }) => updateDirectory(input, ctx.actor)),

  delete: adminProcedure.input(z.strictObject({ id: ZId })).mutation(({ input, ctx }) => deleteDirectory(input.id, ctx.actor)),

  /**
   * Tests the form's settings against the directory; writes nothing. An administrator's only: it
   * opens connections from the server to an address of the caller's choosing.
   */
  test: adminProcedure.input(ZDirectoryConsole).mutation(({ input }) => testConnection(input)),
});
