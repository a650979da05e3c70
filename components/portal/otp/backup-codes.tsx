"use client";
import { useMutation } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { usePortalErrorText } from "../portal-errors.ts";
import { formatTime } from "../portal-states.tsx";
import { useTRPC, type TPortalOutputs } from "../trpc.ts";
import { useOtpPortalText } from "./i18n.ts";

type TCount = TPortalOutputs["otp"]["state"]["backupCodes"];

/**
 * A new set of backup codes, shown this once: as a list to write down, as a text file to keep, and
 * to copy. The page takes focus here so a screen reader reads them out first.
 */
export function BackupCodesShown({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const o = useOtpPortalText();
  const [copied, setCopied] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const file = `${o("backup.fileTitle")}\n\n${codes.join("\n")}\n\n${o("backup.fileNote")}\n`;
  const copy = async () => {
    await navigator.clipboard.writeText(codes.join("\n"));
    setCopied(true);
  };
  return (
    <section className="backup-shown" aria-labelledby="backup-shown-title" data-testid="backup-codes">
      <h2 id="backup-shown-title" ref={heading} tabIndex={-1}>{o("backup.shownTitle")}</h2>
      <p>{o("backup.shownIntro")}</p>
      <ol className="backup-shown__codes">
        {codes.map((c) => (
          <li key={c}><code>{c}</code></li>
        ))}
      </ol>
      <div className="otp-add__actions">
        <a className="ui-button ui-button--secondary" href={`data:text/plain;charset=utf-8,${encodeURIComponent(file)}`} download="backup-codes.txt">{o("backup.download")}</a>
        <Button onClick={() => void copy()}>{copied ? o("backup.copied") : o("backup.copy")}</Button>
        <Button variant="primary" onClick={onDone}>{o("backup.saved")}</Button>
      </div>
    </section>
  );
}

/** How many codes are left, and a new set on request (the old one stops working). */
export function BackupCodesSummary({ count, onRenewed }: { count: TCount; onRenewed: (codes: string[]) => void }) {
  const o = useOtpPortalText();
  const { lang } = useI18n();
  const reason = usePortalErrorText();
  const trpc = useTRPC();
  const [asking, setAsking] = useState(false);
  const renew = useMutation(trpc.portal.otp.renewBackupCodes.mutationOptions());
  const confirm = async () => {
    try {
      const codes = await renew.mutateAsync();
      setAsking(false);
      onRenewed(codes);
    } catch {
      // told in the dialog
    }
  };
  const created = count.createdAt ? formatTime(Math.floor(new Date(count.createdAt).getTime() / 1000), lang) : "";
  return (
    <section className="backup-summary" aria-labelledby="backup-title">
      <h2 id="backup-title">{o("backup.title")}</h2>
      <p data-testid="backup-left">
        {count.total ? o("backup.left", { left: String(count.unused), total: String(count.total), created }) : o("backup.none")}
      </p>
      {count.total && count.unused <= 2 ? <p className="muted">{o("backup.runningOut")}</p> : null}
      <div>
        <Button onClick={() => { renew.reset(); setAsking(true); }}>{count.total ? o("backup.renew") : o("backup.create")}</Button>
      </div>
      <ConfirmDialog
        open={asking}
        title={count.total ? o("backup.renewTitle") : o("backup.create")}
        body={count.total ? o("backup.renewBody") : o("backup.createBody")}
        confirmLabel={count.total ? o("backup.renew") : o("backup.create")}
        cancelLabel={o("otp.cancelLabel")}
        pending={renew.isPending}
        error={renew.isError ? reason(renew.error) : undefined}
        onConfirm={() => void confirm()}
        onClose={() => setAsking(false)}
      />
    </section>
  );
}
