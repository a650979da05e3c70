"use client";
import { useMutation, type UseQueryResult } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { Table, type TColumn } from "../../ui/table.tsx";
import { appCodeOf, usePortalErrorText } from "../portal-errors.ts";
import { Notice, PortalLoadFailed, PortalLoading, type TNotice } from "../portal-states.tsx";
import { useSecurityText } from "./i18n.ts";

export type TRemovableTexts<R> = {
  title: string;
  intro: string;
  loadFailed: string;
  empty: string;
  caption: string;
  confirmTitle: (row: R) => string;
  confirmBody: (row: R) => ReactNode;
  confirmLabel: string;
  removed: (row: R) => string;
  /** Said when the item was removed meanwhile (elsewhere, or in another window). */
  gone: string;
};

type TProps<R> = {
  texts: TRemovableTexts<R>;
  query: UseQueryResult<R[], unknown>;
  /** The columns, given how a row asks to be removed (its button opens the confirmation). */
  columns: (ask: (row: R) => void) => TColumn<R>[];
  rowKey: (row: R) => string;
  remove: (row: R) => Promise<unknown>;
  /** The registry code of "no such item": the list is read again and says so. */
  notFoundCode: string;
  /** After a removal; returns true when it took the page elsewhere (nothing more to show). */
  afterRemove: (row: R) => boolean | void;
  /** What the page has to tell when it opens (the outcome of a round trip elsewhere). */
  initialNotice?: TNotice;
};

/**
 * A page of the person's items (devices, consents), each removable after a confirmation that says
 * what removing it does. The outcome is told above the list; a failure other than "already gone"
 * stays in the dialog, so it can be tried again.
 */
export function RemovableList<R>({ texts, query, columns, rowKey, remove, notFoundCode, afterRemove, initialNotice = null }: TProps<R>) {
  const s = useSecurityText();
  const reason = usePortalErrorText();
  const [chosen, setChosen] = useState<R | null>(null);
  const [notice, setNotice] = useState<TNotice>(initialNotice);
  const settle = (text: string) => {
    setNotice({ text });
    setChosen(null);
    void query.refetch();
  };
  const removal = useMutation({
    mutationFn: remove,
    onMutate: () => setNotice(null),
    onSuccess: (_r, row) => {
      if (!afterRemove(row)) settle(texts.removed(row));
    },
    onError: (error) => {
      if (appCodeOf(error) === notFoundCode) settle(texts.gone);
    },
  });
  const ask = (row: R) => {
    removal.reset();
    setChosen(row);
  };
  const dialogError = removal.error && appCodeOf(removal.error) !== notFoundCode ? reason(removal.error) : undefined;

  return (
    <>
      <h1 className="page-title">{texts.title}</h1>
      <p className="portal-intro">{texts.intro}</p>
      {notice ? <Notice text={notice.text} error={notice.error} /> : null}
      {query.isPending ? (
        <PortalLoading />
      ) : query.isError ? (
        <PortalLoadFailed label={texts.loadFailed} error={query.error} onRetry={() => query.refetch()} />
      ) : query.data.length === 0 ? (
        <p className="state">{texts.empty}</p>
      ) : (
        <Table caption={texts.caption} columns={columns(ask)} rows={query.data} rowKey={rowKey} />
      )}
      <ConfirmDialog
        open={chosen !== null}
        title={chosen ? texts.confirmTitle(chosen) : ""}
        body={chosen ? texts.confirmBody(chosen) : ""}
        confirmLabel={texts.confirmLabel}
        cancelLabel={s("common.cancel")}
        danger
        pending={removal.isPending}
        error={dialogError}
        onConfirm={() => chosen && removal.mutate(chosen)}
        onClose={() => setChosen(null)}
      />
    </>
  );
}
