import { readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { TTx } from "../db/index.ts";
import { AppError } from "../errors/app-error.ts";
import type { TDeviceDef, TDeviceFormat } from "./device-files.ts";
import { MAX_DEVICE_FILE_BYTES } from "./device-files.ts";
import { devicesOfFile, storeDevices, type TDeviceLoadSummary } from "./otp-devices.service.ts";

/**
 * Import section `otpDevices`: device description files of hardware generators, each given inline
 * (`content`) or as a `file` path relative to the import file.
 *   "otpDevices": [{ "format": "pskc", "file": "tokens.pskc.xml" }, { "format": "csv", "content": "A-1,GEZD…,SHA1,6,0" }]
 */
export const ZOtpDeviceImport = z
  .strictObject({
    format: z.enum(["pskc", "csv"]),
    content: z.string().max(MAX_DEVICE_FILE_BYTES).optional(),
    file: z.string().min(1).max(1024).optional(),
  })
  .refine((e) => (e.content === undefined) !== (e.file === undefined), { message: "give content or file, not both", path: ["content"] });
export type TOtpDeviceImport = z.infer<typeof ZOtpDeviceImport>;

export type TPreparedDevices = { format: TDeviceFormat; devices: TDeviceDef[] }[];

/** Reads and checks every device file before the import's transaction; any mistake refuses the document. */
export async function prepareDeviceImport(entries: TOtpDeviceImport[], baseDir = process.cwd()): Promise<TPreparedDevices> {
  const out: TPreparedDevices = [];
  for (const [i, e] of entries.entries()) {
    const pos = `$.otpDevices[${i}]`;
    let content = e.content;
    if (content === undefined) {
      const file = path.resolve(baseDir, e.file!);
      // A file the import document names, read at run time: not something for the build to trace.
      content = await readFile(/*turbopackIgnore: true*/ file, "utf8").catch((err: NodeJS.ErrnoException) => {
        throw new AppError("import.invalid_document", { items: [{ error: "unreadable", desc: `cannot read ${file}: ${err.code ?? "error"}`, pos: `${pos}.file` }] });
      });
    }
    out.push({ format: e.format, devices: devicesOfFile(e.format, content, pos) });
  }
  return out;
}

export async function applyDeviceImport(prepared: TPreparedDevices, tx: TTx): Promise<TDeviceLoadSummary> {
  const summary: TDeviceLoadSummary = { created: [], updated: [], unchanged: [] };
  for (const { format, devices } of prepared) {
    const s = await storeDevices(devices, format, tx);
    summary.created.push(...s.created);
    summary.updated.push(...s.updated);
    summary.unchanged.push(...s.unchanged);
  }
  return summary;
}
