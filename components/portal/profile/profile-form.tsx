"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { changesOf, draftsOf, type TDrafts } from "../../console/users/attribute-drafts.ts";
import { FormActions } from "../../ui/form-actions.tsx";
import { appCodeOf, inputItemsOf, usePortalErrorText } from "../portal-errors.ts";
import { useTRPC } from "../trpc.ts";
import { fieldProblems } from "./field-errors.ts";
import { useProfileText } from "./i18n.ts";
import { ProfileField } from "./profile-field.tsx";
import type { TNotice, TProfile } from "./types.ts";

type TProps = { profile: TProfile; setNotice: (n: TNotice) => void; onStale: () => void };

/**
 * The profile's attributes other than contacts. Only what changed is sent (a cleared field as null),
 * named with the version the form was filled from; the page keys the form by that version, so a save
 * or a reload starts it again from the stored values.
 */
export function ProfileForm({ profile, setNotice, onStale }: TProps) {
  const u = useProfileText();
  const reason = usePortalErrorText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [drafts, setDrafts] = useState<TDrafts>(() => draftsOf(profile.fields, profile.attributes));
  const update = useMutation(
    trpc.portal.profile.update.mutationOptions({
      onMutate: () => setNotice(null),
      onSuccess: (next) => {
        queryClient.setQueryData(trpc.portal.profile.get.queryKey(), next);
        // The header and the overview show the name.
        void queryClient.invalidateQueries({ queryKey: trpc.portal.me.queryKey() });
        setNotice({ text: u("profile.saved") });
      },
      onError: (error) => {
        if (appCodeOf(error) === "user.stale_instance") onStale();
        else if (!inputItemsOf(error).length) setNotice({ text: reason(error), error: true });
      },
    }),
  );
  const errors = fieldProblems(inputItemsOf(update.error), u);

  function submit(e: FormEvent) {
    e.preventDefault();
    const changes = changesOf(profile.fields.filter((f) => f.editable), profile.attributes, drafts);
    if (Object.keys(changes).length === 0) {
      setNotice({ text: u("profile.noChanges") });
      return;
    }
    update.mutate({ instanceId: profile.instanceId, attributes: changes });
  }

  return (
    <form className="portal-card portal-form" onSubmit={submit} noValidate aria-busy={update.isPending} aria-labelledby="profile-details-title">
      <h2 id="profile-details-title" className="portal-section-title">
        {u("profile.details")}
      </h2>
      {Object.keys(errors).length ? (
        <p className="ui-alert ui-alert--error" role="alert">
          {u("profile.fixErrors")}
        </p>
      ) : null}
      <div className="portal-form__grid">
        {profile.fields.map((f) => (
          <ProfileField
            key={f.name}
            field={f}
            draft={drafts[f.name] ?? { text: "", vrf: false }}
            onChange={(next) => setDrafts((d) => ({ ...d, [f.name]: next }))}
            error={errors[f.name]}
          />
        ))}
      </div>
      <FormActions pending={update.isPending} submitLabel={u("profile.save")} pendingLabel={u("profile.saving")} />
    </form>
  );
}
