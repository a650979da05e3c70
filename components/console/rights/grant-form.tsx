"use client";
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { TConsolePartyType } from "@/server/rights/api/console";
import type { TRightDefinition } from "@/server/rights/rights.schemas";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import { SelectField, TextAreaField } from "../../ui/field.tsx";
import { FormActions } from "../../ui/form-actions.tsx";
import { FormAlert } from "../../ui/form-alert.tsx";
import { fieldErrorsOf } from "../call-errors.ts";
import { useTRPC } from "../trpc.ts";
import { useRightsText } from "./i18n.ts";
import { grantableRights, otherPartyTypes, pairOf, parseTags, recordOf, type TDirection, type TParty } from "./parties.ts";
import { KIND_KEY, PartyPicker, type TPicked } from "./party-picker.tsx";
import { rightsMessageOf } from "./rights-errors.ts";
import { useFocusFirstError } from "../../ui/use-focus-first-error.ts";

/** `onGranted` may return a promise: the form stays busy until it settles. */
type TProps = { party: TParty; dir: TDirection; defs: TRightDefinition[]; onGranted: () => Promise<void> | void; onCancel: () => void };

/**
 * Grants a right between the browsed party and another: to it ("of": it is the subject) or on it
 * ("on": it is the object). Only the rights defined for its kind are offered, and for the other party
 * only the kinds the chosen right admits; the server checks all of it again.
 */
export function GrantForm({ party, dir, defs, onGranted, onCancel }: TProps) {
  const { t, lang } = useI18n();
  const r = useRightsText();
  const trpc = useTRPC();
  const rights = grantableRights(defs, party.type, dir);
  const [rightName, setRightName] = useState(rights[0]?.name ?? "");
  const right = rights.find((d) => d.name === rightName);
  const types = otherPartyTypes(right, dir);
  const [chosenType, setChosenType] = useState<TConsolePartyType | null>(null);
  const otherType = chosenType && types.includes(chosenType) ? chosenType : types[0];
  const [other, setOther] = useState<TPicked | null>(null);
  const [tags, setTags] = useState("");
  const [missing, setMissing] = useState(false);
  const grant = useMutation(trpc.console.rights.grant.mutationOptions({ onSuccess: () => onGranted() }));

  const errors = grant.error ? fieldErrorsOf(grant.error, t) : {};

  const formRef = useFocusFirstError<HTMLFormElement>(grant.error);
  const fieldAlert = errors.tags || errors.rights ? r("form.fixErrors") : null;
  const alert = missing ? r("grant.pickFirst") : (fieldAlert ?? (grant.error ? rightsMessageOf(grant.error, r, t) : null));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const picked = other?.type === otherType ? other : null;
    setMissing(!picked);
    if (!picked) return;
    const [subject, object] = pairOf(party, picked, dir);
    grant.mutate(recordOf(subject, object, [rightName], parseTags(tags)));
  };

  if (!rights.length) {
    return (
      <div className="client-form">
        <p className="ui-alert ui-alert--info">{r("grant.noRights")}</p>
        <div className="client-form__actions">
          <Button onClick={onCancel}>{r("browser.cancel")}</Button>
        </div>
      </div>
    );
  }
  return (
    <form ref={formRef} className="client-form" onSubmit={submit} noValidate aria-busy={grant.isPending}>
      <FormAlert text={alert} />
      <div className="client-form__row">
        <SelectField label={r("grant.right")} hint={right?.description[lang] || undefined} value={rightName} onChange={(e) => setRightName(e.target.value)} error={errors.rights}>
          {rights.map((d) => (
            <option key={d.name} value={d.name}>
              {d.name}
            </option>
          ))}
        </SelectField>
        <SelectField
          label={r(dir === "of" ? "grant.objectType" : "grant.subjectType")}
          value={otherType ?? ""}
          onChange={(e) => {
            setChosenType(e.target.value as TConsolePartyType);
            setOther(null);
          }}
        >
          {types.map((type) => (
            <option key={type} value={type}>
              {r(KIND_KEY[type]!)}
            </option>
          ))}
        </SelectField>
      </div>
      {otherType ? (
        <PartyPicker
          key={otherType}
          type={otherType}
          value={other?.type === otherType ? other : null}
          onChange={(p) => {
            setOther(p);
            setMissing(false);
          }}
        />
      ) : null}
      <TextAreaField label={r("grant.tags")} hint={r("grant.tagsHint")} value={tags} onChange={(e) => setTags(e.target.value)} error={errors.tags} rows={3} spellCheck={false} />
      <FormActions pending={grant.isPending} cancelLabel={r("browser.cancel")} submitLabel={r("grant.submit")} pendingLabel={r("grant.pending")} onCancel={onCancel} />
    </form>
  );
}
