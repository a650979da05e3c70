"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useState, type FormEvent } from "react";
import type { AppRouter } from "@/server/trpc/root";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import { CheckboxField, SelectField, TextAreaField, TextField } from "../../ui/field.tsx";
import { fieldErrorsOf } from "../call-errors.ts";
import { SaveOutcome } from "../save-outcome.tsx";
import { QueryStates } from "../list-parts.tsx";
import { useTRPC } from "../trpc.ts";
import { usePolicyText, type TPolicyKey } from "./i18n.ts";
import "./password-policy.css";
import { useFocusFirstError } from "../../ui/use-focus-first-error.ts";

type TPolicy = inferRouterOutputs<AppRouter>["console"]["passwordPolicy"]["get"];
const KINDS = ["lower", "upper", "letter", "digit", "symbol", "chars"] as const;
type TKind = (typeof KINDS)[number];
type TGroupDraft = { desc: string; kind: TKind; chars: string; min: string };
type TDraft = { minLength: string; minLengthWithSecondFactor: string; maxLength: string; historySize: string; minNewChars: string; minAgeSec: string; minGroups: string; dictionary: boolean; stopWords: string; groups: TGroupDraft[] };

const DEFAULT_DRAFT: TDraft = { minLength: "15", minLengthWithSecondFactor: "8", maxLength: "1024", historySize: "5", minNewChars: "0", minAgeSec: "0", minGroups: "", dictionary: true, stopWords: "", groups: [] };

function toDraft(p: TPolicy): TDraft {
  return {
    minLength: String(p.minLength),
    minLengthWithSecondFactor: String(p.minLengthWithSecondFactor),
    maxLength: String(p.maxLength),
    historySize: String(p.historySize),
    minNewChars: String(p.minNewChars),
    minAgeSec: String(p.minAgeSec),
    minGroups: p.minGroups === undefined ? "" : String(p.minGroups),
    dictionary: p.dictionary,
    stopWords: p.stopWords.join("\n"),
    groups: p.groups.map((g) => ({ desc: g.desc, kind: g.chars !== undefined ? "chars" : (g.class ?? "symbol"), chars: g.chars ?? "", min: String(g.minNumberSymbols) })),
  };
}

// Numbers travel as typed: a field left empty or not a number reaches the server's schema, which names it.
const num = (s: string) => (s.trim() === "" ? Number.NaN : Number(s));

function toPolicy(d: TDraft) {
  return {
    minLength: num(d.minLength),
    minLengthWithSecondFactor: num(d.minLengthWithSecondFactor),
    maxLength: num(d.maxLength),
    historySize: num(d.historySize),
    minNewChars: num(d.minNewChars),
    minAgeSec: num(d.minAgeSec),
    ...(d.minGroups.trim() ? { minGroups: num(d.minGroups) } : {}),
    dictionary: d.dictionary,
    stopWords: d.stopWords.split("\n").map((w) => w.trim()).filter(Boolean),
    groups: d.groups.map((g) => ({ desc: g.desc, ...(g.kind === "chars" ? { chars: g.chars } : { class: g.kind }), minNumberSymbols: num(g.min) })),
  };
}

function GroupRow({ group, index, onChange, onRemove }: { group: TGroupDraft; index: number; onChange: (g: TGroupDraft) => void; onRemove: () => void }) {
  const p = usePolicyText();
  return (
    <li className="policy-group" aria-label={`#${index + 1}`}>
      <TextField label={p("policy.groupDesc")} value={group.desc} onChange={(e) => onChange({ ...group, desc: e.target.value })} required />
      <SelectField label={p("policy.groupKind")} value={group.kind} onChange={(e) => onChange({ ...group, kind: e.target.value as TKind })}>
        {KINDS.map((k) => (
          <option key={k} value={k}>
            {p(`policy.kind.${k}` as TPolicyKey)}
          </option>
        ))}
      </SelectField>
      {group.kind === "chars" ? <TextField label={p("policy.groupChars")} value={group.chars} onChange={(e) => onChange({ ...group, chars: e.target.value })} /> : null}
      <TextField label={p("policy.groupMin")} type="number" min={1} max={64} value={group.min} onChange={(e) => onChange({ ...group, min: e.target.value })} />
      <Button onClick={onRemove}>{p("policy.removeGroup")}</Button>
    </li>
  );
}

function PolicyForm({ initial }: { initial: TPolicy }) {
  const { t } = useI18n();
  const p = usePolicyText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<TDraft>(() => toDraft(initial));
  const save = useMutation(
    trpc.console.passwordPolicy.save.mutationOptions({
      onSuccess: (saved) => {
        setDraft(toDraft(saved));
        void queryClient.invalidateQueries({ queryKey: trpc.console.passwordPolicy.get.queryKey() });
      },
    }),
  );
  const errors = save.isError ? fieldErrorsOf(save.error, t) : {};
  const formRef = useFocusFirstError<HTMLFormElement>(save.error);
  const set = (patch: Partial<TDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const setGroup = (i: number, g: TGroupDraft) => set({ groups: draft.groups.map((x, j) => (j === i ? g : x)) });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(toPolicy(draft));
  };
  const numberField = (key: "minLength" | "minLengthWithSecondFactor" | "maxLength" | "historySize" | "minNewChars" | "minAgeSec" | "minGroups", label: TPolicyKey) => (
    <TextField label={p(label)} type="number" min={0} value={draft[key]} onChange={(e) => set({ [key]: e.target.value })} error={errors[key]} />
  );
  return (
    <form ref={formRef} className="policy-form" onSubmit={submit} noValidate>
      <fieldset>
        <legend>{p("policy.length")}</legend>
        {numberField("minLength", "policy.minLength")}
        {numberField("minLengthWithSecondFactor", "policy.minLengthWithSecondFactor")}
        {numberField("maxLength", "policy.maxLength")}
      </fieldset>
      <fieldset>
        <legend>{p("policy.reuse")}</legend>
        {numberField("historySize", "policy.historySize")}
        {numberField("minNewChars", "policy.minNewChars")}
        {numberField("minAgeSec", "policy.minAgeSec")}
      </fieldset>
      <fieldset>
        <legend>{p("policy.dictionaries")}</legend>
        <CheckboxField label={p("policy.dictionary")} checked={draft.dictionary} onChange={(e) => set({ dictionary: e.target.checked })} />
        <TextAreaField label={p("policy.stopWords")} hint={p("policy.stopWordsHint")} rows={4} value={draft.stopWords} onChange={(e) => set({ stopWords: e.target.value })} error={errors.stopWords} />
      </fieldset>
      <fieldset>
        <legend>{p("policy.groups")}</legend>
        <p className="muted">{p("policy.groupsHint")}</p>
        {draft.groups.length ? (
          <ol className="policy-groups">
            {draft.groups.map((g, i) => (
              <GroupRow key={i} group={g} index={i} onChange={(next) => setGroup(i, next)} onRemove={() => set({ groups: draft.groups.filter((_, j) => j !== i) })} />
            ))}
          </ol>
        ) : (
          <p className="muted">{p("policy.noGroups")}</p>
        )}
        {errors.groups ? (
          <p className="ui-field__error" role="alert">
            {errors.groups}
          </p>
        ) : null}
        <Button onClick={() => set({ groups: [...draft.groups, { desc: "", kind: "digit", chars: "", min: "1" }] })}>{p("policy.addGroup")}</Button>
        {draft.groups.length ? numberField("minGroups", "policy.minGroups") : null}
      </fieldset>
      <div className="policy-form__actions">
        <Button onClick={() => setDraft(DEFAULT_DRAFT)} disabled={save.isPending}>
          {p("policy.reset")}
        </Button>
        <Button type="submit" variant="primary" disabled={save.isPending} aria-busy={save.isPending}>
          {save.isPending ? p("policy.saving") : p("policy.save")}
        </Button>
      </div>
      <SaveOutcome save={save} savedText={p("policy.saved")} fieldErrors={errors} />
    </form>
  );
}

export function PasswordPolicyScreen() {
  const p = usePolicyText();
  const trpc = useTRPC();
  const policy = useQuery(trpc.console.passwordPolicy.get.queryOptions());
  return (
    <section className="policy">
      <h1 className="page-title">{p("policy.title")}</h1>
      <p className="muted policy__intro">{p("policy.intro")}</p>
      <QueryStates query={policy} loading={p("policy.loading")}>
        {(data) => <PolicyForm initial={data} />}
      </QueryStates>
    </section>
  );
}
