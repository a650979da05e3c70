"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Button } from "../../ui/button.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { TextField } from "../../ui/field.tsx";
import { FormActions } from "../../ui/form-actions.tsx";
import { inputItemsOf, usePortalErrorText } from "../portal-errors.ts";
import { Notice, PortalLoadFailed, PortalLoading, type TNotice } from "../portal-states.tsx";
import { useTRPC } from "../trpc.ts";
import { useSecurityQuestionText } from "./i18n.ts";

const MAX = 500;

/** Set, change or delete one's security question; the question is shown, the answer never. */
export function SecurityQuestionScreen() {
  const q = useSecurityQuestionText();
  const reason = usePortalErrorText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const current = useQuery(trpc.portal.securityQuestion.get.queryOptions());
  const [notice, setNotice] = useState<TNotice>(null);
  const [editing, setEditing] = useState(false);
  const [question, setQuestion] = useState("");
  const [answer, setAnswer] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [confirming, setConfirming] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.portal.securityQuestion.get.queryKey() });
  const save = useMutation(
    trpc.portal.securityQuestion.set.mutationOptions({
      onSuccess: () => {
        setNotice({ text: q("saved") });
        setEditing(false);
        setAnswer("");
        void refresh();
      },
      onError: (error) => {
        const items = inputItemsOf(error);
        if (items.length) setErrors(Object.fromEntries(items.map((i) => [i.pos, i.desc])));
        else setNotice({ text: reason(error), error: true });
      },
    }),
  );
  const remove = useMutation(
    trpc.portal.securityQuestion.remove.mutationOptions({
      onSuccess: () => setNotice({ text: q("removed") }),
      onError: (error) => setNotice({ text: reason(error), error: true }),
      onSettled: () => {
        setConfirming(false);
        void refresh();
      },
    }),
  );

  function submit(e: FormEvent) {
    e.preventDefault();
    setNotice(null);
    const found: Record<string, string> = {};
    for (const [name, value] of [["question", question], ["answer", answer]] as const) {
      if (!value.trim()) found[name] = q("required");
      else if (value.length > MAX) found[name] = q("tooLong");
    }
    setErrors(found);
    if (!Object.keys(found).length) save.mutate({ question: question.trim(), answer });
  }

  const form = (
    <form className="portal-card portal-form" onSubmit={submit} noValidate aria-busy={save.isPending} aria-labelledby="secqsn-form-title">
      <h2 id="secqsn-form-title" className="portal-section-title">
        {current.data ? q("change") : q("title")}
      </h2>
      <TextField label={q("question")} name="question" value={question} maxLength={MAX} error={errors.question} onChange={(e) => setQuestion(e.target.value)} />
      <TextField
        label={q("answer")}
        name="answer"
        type="password"
        autoComplete="off"
        value={answer}
        maxLength={MAX}
        hint={q("answerHint")}
        error={errors.answer}
        onChange={(e) => setAnswer(e.target.value)}
      />
      <FormActions
        pending={save.isPending}
        submitLabel={q("save")}
        pendingLabel={q("saving")}
        cancelLabel={q("cancel")}
        onCancel={current.data ? () => setEditing(false) : undefined}
      />
    </form>
  );

  let body;
  if (current.isPending) body = <PortalLoading />;
  else if (current.isError) body = <PortalLoadFailed label={q("loadFailed")} error={current.error} onRetry={() => void current.refetch()} />;
  else if (!current.data || editing) body = form;
  else {
    body = (
      <section className="portal-card" aria-labelledby="secqsn-current-title">
        <h2 id="secqsn-current-title" className="portal-section-title">
          {q("current")}
        </h2>
        <p data-testid="security-question">{current.data}</p>
        <div className="client-form__actions">
          <Button
            onClick={() => {
              setQuestion(current.data ?? "");
              setAnswer("");
              setErrors({});
              setEditing(true);
            }}
          >
            {q("change")}
          </Button>
          <Button variant="danger" onClick={() => setConfirming(true)}>
            {q("remove")}
          </Button>
        </div>
      </section>
    );
  }
  return (
    <>
      <h1 className="page-title">{q("title")}</h1>
      <p className="portal-intro">{q("intro")}</p>
      {notice ? <Notice text={notice.text} error={notice.error} /> : null}
      {!current.isPending && !current.isError && !current.data && !editing ? <p className="muted">{q("none")}</p> : null}
      {body}
      <ConfirmDialog
        open={confirming}
        title={q("removeTitle")}
        body={q("removeBody")}
        confirmLabel={q("remove")}
        cancelLabel={q("cancel")}
        pending={remove.isPending}
        danger
        onConfirm={() => remove.mutate()}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}
