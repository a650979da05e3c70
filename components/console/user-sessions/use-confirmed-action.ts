"use client";
import { useState } from "react";
import { useI18n } from "../../i18n-provider.tsx";
import { appCodeOf, messageOf } from "../call-errors.ts";

export type TNotice = { text: string; error: boolean } | null;

type TMutation<I> = { mutateAsync: (input: I) => Promise<unknown>; isPending: boolean };

type TOptions<T, I> = {
  inputOf: (item: T) => I;
  doneText: (item: T) => string;
  /** The registry code of "it is gone already": said in the notice, the dialog closes. */
  goneCode: string;
  goneText: string;
  /** After success or failure: the lists to read again. */
  after: () => void;
  /** Where the outcome is told: the card's notice, shared by its actions so the last one shows. */
  notify: (notice: TNotice) => void;
};

/**
 * An action on one item of a card that the administrator confirms first (sign a device out, revoke
 * a consent): which item awaits confirmation, the call, and telling how it went.
 */
export function useConfirmedAction<T, I>(mutation: TMutation<I>, opts: TOptions<T, I>) {
  const { t } = useI18n();
  const [target, setTarget] = useState<T | null>(null);
  const [error, setError] = useState<string>();
  const confirm = async () => {
    if (target === null) return;
    setError(undefined);
    try {
      await mutation.mutateAsync(opts.inputOf(target));
      opts.notify({ text: opts.doneText(target), error: false });
      setTarget(null);
    } catch (e) {
      if (appCodeOf(e) !== opts.goneCode) return setError(messageOf(e, t));
      opts.notify({ text: opts.goneText, error: true });
      setTarget(null);
    } finally {
      opts.after();
    }
  };
  return {
    target,
    ask: (item: T) => {
      setError(undefined);
      opts.notify(null);
      setTarget(item);
    },
    dialog: { open: target !== null, pending: mutation.isPending, error, onConfirm: () => void confirm(), onClose: () => setTarget(null) },
  };
}
