"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { messageOf, messageOfCode } from "../call-errors.ts";
import { useTRPC } from "../trpc.ts";
import { useCan } from "../viewer.tsx";
import { useBulkText } from "./bulk-i18n.ts";

type TAction = "lock" | "unlock" | "endSessions" | "delete";
const ACTIONS: TAction[] = ["lock", "unlock", "endSessions", "delete"];

/** Hands a text to the browser as a file: a blob URL on a link clicked once, revoked right after. */
function download(filename: string, mime: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: `${mime};charset=utf-8` }));
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  a.click();
  URL.revokeObjectURL(url);
}

type TProps = { selected: string[]; onClear: () => void; onNotice: (text: string, error: boolean) => void };

/** What can be done with the selected accounts: each action confirmed with the count, then reported per account. */
export function BulkBar({ selected, onClear, onNotice }: TProps) {
  const { t } = useI18n();
  const b = useBulkText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const manages = useCan("manage_users");
  const [asking, setAsking] = useState<TAction | null>(null);
  const n = String(selected.length);
  const bulk = useMutation(
    trpc.console.users.bulk.mutationOptions({
      onSuccess: ({ done, refused }) => {
        setAsking(null);
        onClear();
        void queryClient.invalidateQueries(trpc.console.users.list.pathFilter());
        const list = refused.map((r) => `${r.sub} — ${messageOfCode(r.code, t)}`).join("; ");
        onNotice([b("bulk.done", { n: String(done.length) }), refused.length ? b("bulk.refused", { n: String(refused.length), list }) : ""].join(" ").trim(), refused.length > 0);
      },
    }),
  );
  const exported = useMutation(
    trpc.console.users.export.mutationOptions({
      // The file's text is handed to the browser and kept nowhere else.
      gcTime: 0,
      onSuccess: (file) => download(file.filename, file.mime, file.text),
      onError: (e) => onNotice(messageOf(e, t), true),
    }),
  );
  const exportAs = (format: "csv" | "json") => exported.mutate({ subs: selected, format });
  if (selected.length === 0) return null;
  return (
    <div className="users-bulk" role="region" aria-label={b("bulk.selected", { n })}>
      <span className="users-bulk__count">{b("bulk.selected", { n })}</span>
      {manages
        ? ACTIONS.map((a) => (
            <Button key={a} size="sm" variant={a === "delete" ? "danger" : "secondary"} onClick={() => setAsking(a)}>
              {b(`bulk.${a}`)}
            </Button>
          ))
        : null}
      <Button size="sm" onClick={() => exportAs("csv")} disabled={exported.isPending}>
        {b("bulk.exportCsv")}
      </Button>
      <Button size="sm" onClick={() => exportAs("json")} disabled={exported.isPending}>
        {b("bulk.exportJson")}
      </Button>
      <Button size="sm" variant="ghost" onClick={onClear}>
        {b("bulk.clear")}
      </Button>
      <ConfirmDialog
        open={asking !== null}
        title={asking ? b(`bulk.confirm.${asking}`, { n }) : ""}
        body={asking ? b(`bulk.body.${asking}`) : ""}
        confirmLabel={asking ? b(`bulk.go.${asking}`, { n }) : ""}
        cancelLabel={b("bulk.cancel")}
        danger={asking === "delete" || asking === "lock"}
        pending={bulk.isPending}
        error={bulk.error ? messageOf(bulk.error, t) : undefined}
        onConfirm={() => asking && bulk.mutate({ subs: selected, action: asking })}
        onClose={() => {
          setAsking(null);
          bulk.reset();
        }}
      />
    </div>
  );
}
