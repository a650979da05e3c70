"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import { TextField } from "../../ui/field.tsx";
import { formatPhone } from "../overview-screen.tsx";
import { appCodeOf, inputItemsOf, usePortalErrorText } from "../portal-errors.ts";
import { useTRPC } from "../trpc.ts";
import { CodeEntry, type TCodeEnd } from "./code-entry.tsx";
import { fieldProblems } from "./field-errors.ts";
import { attributeLabel, useProfileText } from "./i18n.ts";
import type { TContact, TNotice } from "./types.ts";

type TProps = {
  contact: TContact;
  instanceId: string;
  /** When the profile was read (the pending code's seconds count from then). */
  readAt: number;
  setNotice: (n: TNotice) => void;
  onStale: () => void;
};

/**
 * One contact (e-mail, phone): its address and whether it is confirmed, and its change: a new
 * address gets a code, and the code entry stays on this card until the change is confirmed or
 * can no longer be (then "Start again" brings the address form back, filled in).
 */
export function ContactCard({ contact, instanceId, readAt, setNotice, onStale }: TProps) {
  const u = useProfileText();
  const { lang } = useI18n();
  const reason = usePortalErrorText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const titleId = useId();
  const [editing, setEditing] = useState(false);
  // The code field takes the focus when the person just asked for the code, not on every page load.
  const [justSent, setJustSent] = useState(false);
  const [address, setAddress] = useState("");
  // How the last confirmation on this card ended, and which one it was (a newer one may follow).
  const [ended, setEnded] = useState<(TCodeEnd & { state: string }) | null>(null);
  const show = (v: string) => (contact.kind === "phone" ? formatPhone(v) : v);
  const label = attributeLabel(u, contact.attr);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.portal.profile.get.queryKey() });

  const start = useMutation(
    trpc.portal.profile.startContactChange.mutationOptions({
      onMutate: () => setNotice(null),
      onSuccess: (next) => {
        queryClient.setQueryData(trpc.portal.profile.get.queryKey(), next);
        setEditing(false);
        setJustSent(true);
      },
      onError: (error) => {
        if (appCodeOf(error) === "user.stale_instance") onStale();
        else if (!inputItemsOf(error).length) setNotice({ text: reason(error), error: true });
      },
    }),
  );
  const addressError = fieldProblems(inputItemsOf(start.error), u)[contact.attr];

  function submit(e: FormEvent) {
    e.preventDefault();
    setEnded(null);
    start.mutate({ instanceId, attr: contact.attr, value: address, lang });
  }

  function onEnd(end: TCodeEnd) {
    const pending = contact.pending!;
    if (end.kind === "confirmed") {
      setNotice({ text: u("code.confirmed", { to: show(pending.value) }) });
      void queryClient.invalidateQueries({ queryKey: trpc.portal.me.queryKey() });
    } else {
      setAddress(pending.value);
    }
    setEnded({ ...end, state: pending.state });
    void refresh();
  }

  const openForm = () => {
    start.reset();
    setEnded(null);
    setEditing(true);
  };

  return (
    <section className="portal-card contact-card" aria-labelledby={titleId}>
      <h3 id={titleId} className="portal-section-subtitle">
        {label}
      </h3>
      <p className="contact-card__value">
        {contact.value ? (
          <>
            <span data-testid={`contact-${contact.attr}`}>{show(contact.value)}</span>
            <span className={`badge ${contact.verified ? "badge--on" : "badge--warn"}`}>{contact.verified ? u("contact.confirmed") : u("contact.unconfirmed")}</span>
          </>
        ) : (
          <span className="muted">{u("contact.none")}</span>
        )}
      </p>
      {contact.pending && contact.pending.state !== ended?.state ? (
        <CodeEntry key={contact.pending.state} contact={contact} pending={contact.pending} readAt={readAt} shownValue={show(contact.pending.value)} onEnd={onEnd} focus={justSent} />
      ) : ended?.kind === "failed" && !editing ? (
        <div className="contact-card__ended">
          <p className="ui-alert ui-alert--error" role="alert">
            {u(ended.reason)}
          </p>
          <Button variant="primary" onClick={openForm}>
            {u("code.startAgain")}
          </Button>
        </div>
      ) : editing ? (
        <form className="contact-card__form" onSubmit={submit} noValidate aria-busy={start.isPending}>
          <TextField
            label={u(`contact.new.${contact.kind}`)}
            type={contact.kind === "phone" ? "tel" : "email"}
            autoComplete={contact.kind === "phone" ? "tel" : "email"}
            spellCheck={false}
            autoFocus
            value={address}
            onChange={(e) => setAddress(e.target.value)}
            error={addressError}
            hint={contact.kind === "phone" ? u("contact.hint.phone") : undefined}
          />
          <div className="code-entry__actions">
            <Button type="submit" variant="primary" disabled={start.isPending}>
              {start.isPending ? u("contact.sending") : u("contact.send")}
            </Button>
            <Button onClick={() => setEditing(false)} disabled={start.isPending}>
              {u("contact.cancel")}
            </Button>
          </div>
        </form>
      ) : contact.editable ? (
        <Button onClick={openForm}>{u(contact.value ? "contact.change" : "contact.add", { what: label.toLowerCase() })}</Button>
      ) : contact.owned ? (
        <p className="muted">{u("profile.owned")}</p>
      ) : null}
    </section>
  );
}
