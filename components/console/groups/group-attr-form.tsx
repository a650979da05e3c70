"use client";
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import { TextField } from "../../ui/field.tsx";
import { FormActions } from "../../ui/form-actions.tsx";
import { FormAlert } from "../../ui/form-alert.tsx";
import { appCodeOf, fieldErrorsOf } from "../call-errors.ts";
import { draftsOf, newAttributesOf, type TDrafts } from "../users/attribute-drafts.ts";
import { AttributeFields } from "../users/attribute-input.tsx";
import { asAttributeDef } from "@/server/groups/group-attr-def";
import { useTRPC } from "../trpc.ts";
import { groupsMessageOf } from "./group-errors.ts";
import { useGroupsText } from "./i18n.ts";
import type { TGroupDetail, TProfileView } from "./types.ts";
import "../users/users.css";
import { useFocusFirstError } from "../../ui/use-focus-first-error.ts";

type TProps = {
  profile: TProfileView;
  /** The group as read: edit (guarded by its instanceId); absent: create. */
  group?: TGroupDetail;
  onSaved: (id: string) => void | Promise<void>;
  onCancel: () => void;
  /** A stale edit: read the group again (the form is then rebuilt from it). */
  onReload?: () => void;
};

/**
 * A form generated from the profile's schema. Editing sends every attribute (the service replaces
 * them all) with the instanceId it read: a change made meanwhile is refused and nothing is lost
 * silently.
 */
export function GroupAttrForm({ profile, group, onSaved, onCancel, onReload }: TProps) {
  const { t } = useI18n();
  const g = useGroupsText();
  const trpc = useTRPC();
  const defs = profile.attributes.map(asAttributeDef);
  const [id, setId] = useState("");
  const [drafts, setDrafts] = useState<TDrafts>(() => draftsOf(defs, group?.attrs ?? {}));
  const create = useMutation(trpc.console.groups.create.mutationOptions({ onSuccess: (saved) => onSaved(saved) }));
  const update = useMutation(trpc.console.groups.update.mutationOptions({ onSuccess: () => onSaved(group!.id) }));
  const call = group ? update : create;
  const errors = call.error ? fieldErrorsOf(call.error, t) : {};
  const formRef = useFocusFirstError<HTMLFormElement>(call.error);
  const code = appCodeOf(call.error);
  if (code === "group.exists") errors.id = g("gform.exists");
  const stale = code === "group.stale_instance";
  const alert = stale ? null : Object.keys(errors).length ? g("pform.fixErrors") : call.error ? groupsMessageOf(call.error, g, t) : null;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const attrs = newAttributesOf(defs, drafts);
    if (group) update.mutate({ profile: profile.name, id: group.id, attrs, instanceId: group.instanceId });
    else create.mutate({ profile: profile.name, id: id.trim(), attrs });
  };

  return (
    <form ref={formRef} className="client-form" onSubmit={submit} noValidate aria-busy={call.isPending}>
      <FormAlert text={alert} />
      {stale ? (
        <div className="ui-alert ui-alert--error group-stale" role="alert">
          <span>{g("gform.stale")}</span>
          {onReload ? (
            <Button size="sm" onClick={onReload}>
              {g("gform.reload")}
            </Button>
          ) : null}
        </div>
      ) : null}
      {group ? null : <TextField label={g("gform.id")} hint={g("gform.idHint")} value={id} onChange={(e) => setId(e.target.value)} error={errors.id} autoComplete="off" spellCheck={false} required />}
      {defs.length ? <AttributeFields defs={defs} drafts={drafts} setDrafts={setDrafts} errors={errors} /> : <p className="muted">{g("gform.noAttrs")}</p>}
      <FormActions pending={call.isPending} cancelLabel={g("common.cancel")} submitLabel={group ? g("pform.save") : g("pform.create")} pendingLabel={g("pform.saving")} onCancel={onCancel} />
    </form>
  );
}
