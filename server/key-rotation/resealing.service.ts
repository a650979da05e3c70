import { recordEvent } from "../audit/audit.service.ts";
import { getConfig } from "../config/config.ts";
import { currentSecretKeyId, forgetDerivedKeys, sealFor, unsealFor } from "../crypto/keys.ts";
import { keyFileLines, newSecretKey, resolveSecretKeys, writeKeyFile } from "../crypto/secret-key.ts";
import { sealedPrefix } from "../crypto/sealing.ts";
import { log } from "../log/logger.ts";
import { countCellsNotUnder, findCellsNotUnder, replaceCell } from "./resealing.repository.ts";
import { SEALED_COLUMNS } from "./sealed-columns.ts";

const BATCH = 500;

export type TColumnReport = {
  /** table.column */
  column: string;
  /** Cells opened with a previous key and sealed again under the current one. */
  resealed: number;
  /** Cells a request changed while they were being re-sealed: the request's value stays. */
  changedMeanwhile: number;
  /** Cells no key of the ring opens: left as they are, counted so the operator keeps the old key. */
  unreadable: number;
  /** Cells still not under the current key after the walk (unreadable ones, or written meanwhile by an instance that seals under an old key). */
  remaining: number;
};

/**
 * Re-seals every sealed cell that is not under the current secret key (IDP_SECRET_KEY, or the data
 * dir's first key): opened with the key that sealed it (one of the previous keys), sealed again
 * under the current one. The running servers keep working throughout: they open either form. Safe to
 * run again; a run with nothing left to do reads one page per column.
 */
export async function resealEverything(): Promise<TColumnReport[]> {
  const prefix = sealedPrefix(currentSecretKeyId());
  const reports: TColumnReport[] = [];
  for (const c of SEALED_COLUMNS) {
    const report: TColumnReport = { column: `${c.table}.${c.column}`, resealed: 0, changedMeanwhile: 0, unreadable: 0, remaining: 0 };
    for (let after = "(0,0)"; ; ) {
      const cells = await findCellsNotUnder(c, prefix, after, BATCH);
      for (const cell of cells) {
        let plaintext: string;
        try {
          plaintext = unsealFor(c.purpose, cell.value);
        } catch {
          report.unreadable++;
          continue;
        }
        if (await replaceCell(c, cell, sealFor(c.purpose, plaintext))) report.resealed++;
        else report.changedMeanwhile++;
      }
      if (cells.length < BATCH) break;
      after = cells[cells.length - 1]!.at;
    }
    report.remaining = await countCellsNotUnder(c, prefix);
    reports.push(report);
  }
  const total = (k: "resealed" | "unreadable" | "remaining") => reports.reduce((n, r) => n + r[k], 0);
  log.info("secret key rotation: re-sealed", { keyId: currentSecretKeyId(), resealed: total("resealed"), unreadable: total("unreadable"), remaining: total("remaining") });
  await recordEvent("keys.secret_key_rotated", {}, { keyId: currentSecretKeyId(), resealed: total("resealed"), unreadable: total("unreadable"), remaining: total("remaining"), by: "cli" });
  return reports;
}

export type TSecretRotation = { keyId: string; generated: boolean; reports: TColumnReport[] };

/**
 * `rotate-secret-key`. With IDP_SECRET_KEY set, the operator has already made the new key current
 * and listed the old one in IDP_SECRET_KEY_PREVIOUS on every instance (docs/key-rotation.md); this
 * re-seals. Without it (the embedded mode's key file), this is the whole rotation: a new key is put
 * first in the file, everything is re-sealed, and the old key is dropped once nothing needs it.
 */
export async function rotateSecretKey(): Promise<TSecretRotation> {
  const config = getConfig();
  const generated = !config.secretKey;
  if (generated) {
    // A file with old keys after the first line is a rotation that did not finish: it goes on under
    // the key it made, rather than make another.
    resolveSecretKeys(config); // makes the file on a data dir no server has started on
    const lines = keyFileLines(config);
    if (lines.length === 1) writeKeyFile(config, [newSecretKey(), ...lines]);
    forgetDerivedKeys();
  }
  const reports = await resealEverything();
  if (generated && reports.every((r) => r.remaining === 0)) {
    writeKeyFile(config, [keyFileLines(config)[0]!]);
    forgetDerivedKeys();
  }
  return { keyId: currentSecretKeyId(), generated, reports };
}
