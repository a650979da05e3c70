"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useI18n } from "../../i18n-provider.tsx";
import { appCodeOf, messageOf } from "../call-errors.ts";
import { useTRPC } from "../trpc.ts";
import { useUsersText } from "./i18n.ts";
import type { TUserDetail } from "./types.ts";

export type TNotice = { text: string; error: boolean } | null;

/** The account changed or vanished since the page read it: the notice explains, not a field. */
export function accountChanged(error: unknown): boolean {
  const code = appCodeOf(error);
  return code === "user.stale_instance" || code === "user.not_found";
}

/**
 * Save, lock and delete of one account. Each names the version it was shown (instanceId): when
 * someone else changed the account meanwhile the server refuses with stale_instance_id, and the
 * page says so and reloads the account, so the administrator decides again on current data.
 */
export function useUserMutations(sub: string, setNotice: (n: TNotice) => void) {
  const { t } = useI18n();
  const u = useUsersText();
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const detailKey = trpc.console.users.get.queryKey({ sub });
  const refreshList = () => queryClient.invalidateQueries(trpc.console.users.list.pathFilter());

  const applied = (user: TUserDetail, text: string) => {
    queryClient.setQueryData(detailKey, user);
    void refreshList();
    setNotice({ text, error: false });
  };
  /** A failure the page explains in its notice, unless a field or the dialog already shows it. */
  const explain = (error: unknown, shownElsewhere = false): void => {
    if (accountChanged(error)) {
      setNotice({ text: appCodeOf(error) === "user.stale_instance" ? u("detail.stale") : u("detail.gone"), error: true });
      void queryClient.invalidateQueries({ queryKey: detailKey });
      void refreshList();
    } else if (!shownElsewhere) {
      setNotice({ text: messageOf(error, t), error: true });
    }
  };

  const update = useMutation(
    trpc.console.users.update.mutationOptions({
      onMutate: () => setNotice(null),
      onSuccess: (user) => applied(user, u("detail.saved")),
      // Field problems show next to the fields; the form says so in its own alert.
      onError: (error) => explain(error, appCodeOf(error) === "request.invalid_values"),
    }),
  );
  const setLocked = useMutation(
    trpc.console.users.setLocked.mutationOptions({
      onMutate: () => setNotice(null),
      onSuccess: (user) => {
        // The form starts again from the new version: an earlier save's field errors no longer apply.
        update.reset();
        applied(user, user.attributes.locked === true ? u("detail.lockedNotice") : u("detail.unlockedNotice"));
      },
      onError: (error) => explain(error),
    }),
  );
  const remove = useMutation(
    trpc.console.users.delete.mutationOptions({
      onSuccess: () => {
        void refreshList();
        queryClient.removeQueries({ queryKey: detailKey });
        router.push("/console/users");
      },
      onError: (error) => explain(error, true),
    }),
  );
  return { update, setLocked, remove };
}
