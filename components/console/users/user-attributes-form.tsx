"use client";
import { useState, type FormEvent } from "react";
import { useI18n } from "../../i18n-provider.tsx";
import { FormActions } from "../../ui/form-actions.tsx";
import { fieldErrorsOf } from "../call-errors.ts";
import { changesOf, draftsOf, editableDefs, type TDrafts } from "./attribute-drafts.ts";
import { AttributeFields } from "./attribute-input.tsx";
import { useUsersText } from "./i18n.ts";
import type { TUserDetail } from "./types.ts";
import { accountChanged, type TNotice, type useUserMutations } from "./use-user-mutations.ts";
import { useFocusFirstError } from "../../ui/use-focus-first-error.ts";

type TProps = {
  user: TUserDetail;
  update: ReturnType<typeof useUserMutations>["update"];
  setNotice: (n: TNotice) => void;
};

/**
 * Every catalog attribute of the account. Only what changed is sent (a cleared field as null), so
 * an unmodifiable attribute is never sent back; the page keys this form by the account's version,
 * so a reload after a save or a stale refusal starts again from the stored values.
 */
export function UserAttributesForm({ user, update, setNotice }: TProps) {
  const { t } = useI18n();
  const u = useUsersText();
  const defs = editableDefs(user.catalog);
  const [drafts, setDrafts] = useState<TDrafts>(() => draftsOf(defs, user.attributes));
  const error = update.error && !accountChanged(update.error) ? update.error : null;
  const errors = error ? fieldErrorsOf(error, t) : {};
  const formRef = useFocusFirstError<HTMLFormElement>(error);
  // A problem no field shows (an attribute the catalog dropped meanwhile) is spelled out in the alert.
  const unplaced = Object.entries(errors).filter(([k]) => !defs.some((d) => k === d.name || k.startsWith(`${d.name}.`)));

  function submit(e: FormEvent) {
    e.preventDefault();
    const changes = changesOf(defs, user.attributes, drafts);
    if (Object.keys(changes).length === 0) {
      setNotice({ text: u("detail.noChanges"), error: false });
      return;
    }
    update.mutate({ instanceId: user.instanceId, attributes: changes });
  }

  return (
    <form ref={formRef} className="user-form" onSubmit={submit} noValidate aria-busy={update.isPending} aria-labelledby="user-attributes-title">
      <h2 id="user-attributes-title" className="user-section__title">
        {u("detail.attributes")}
      </h2>
      {Object.keys(errors).length ? (
        <p className="ui-alert ui-alert--error" role="alert">
          {u("detail.fixErrors")} {unplaced.map(([k, desc]) => `${k}: ${desc}`).join("; ")}
        </p>
      ) : null}
      <AttributeFields
        defs={defs}
        drafts={drafts}
        setDrafts={setDrafts}
        errors={errors}
        shape={(def) =>
          user.ownedAttrs.includes(def.name)
            ? { readOnly: true, hint: u("attr.owned") }
            : { readOnly: def.unmodifiable, hint: def.unmodifiable ? u("attr.unmodifiable") : undefined }
        }
      />
      <FormActions pending={update.isPending} submitLabel={u("detail.save")} pendingLabel={u("detail.saving")} />
    </form>
  );
}
