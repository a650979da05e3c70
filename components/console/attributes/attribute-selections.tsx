"use client";
import { skipToken, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useI18n } from "../../i18n-provider.tsx";
import { CheckboxField } from "../../ui/field.tsx";
import { messageOf } from "../call-errors.ts";
import { useTRPC } from "../trpc.ts";
import { useAttributesText } from "./i18n.ts";
import "./attributes.css";

const SCOPES = ["idp_api_user", "idp_api_user_chg", "idp_api_sys_users", "idp_api_sys_users_chg"] as const;
type TScope = (typeof SCOPES)[number];
/** Per scope: null for every attribute of the catalog, or the chosen names. */
type TChoice = Record<TScope, string[] | null>;

/**
 * The client's attribute selection per scope, edited with the client and saved after it: only the
 * scopes whose choice changed are sent. `clientId` absent (a new client): nothing to load or save.
 */
export function useAttributeSelections(clientId: string | undefined) {
  const { t } = useI18n();
  const a = useAttributesText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const stored = useQuery(trpc.console.attributes.selections.queryOptions(clientId ? { clientId } : skipToken));
  const catalog = useQuery(trpc.console.attributes.list.queryOptions(clientId ? undefined : skipToken));
  const [edited, setEdited] = useState<Partial<TChoice>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const setSelection = useMutation(trpc.console.attributes.setSelection.mutationOptions());
  const storedChoice = Object.fromEntries((stored.data ?? []).map((s) => [s.scope, s.attributes])) as Partial<TChoice>;
  const choiceOf = (scope: TScope) => (scope in edited ? edited[scope]! : (storedChoice[scope] ?? null));

  /** Saves the changed scopes; false when one failed (the block then says which, and why). */
  async function saveChanged(): Promise<boolean> {
    if (!clientId) return true;
    setFailure(null);
    for (const scope of SCOPES) {
      if (!(scope in edited) || JSON.stringify(edited[scope]) === JSON.stringify(storedChoice[scope] ?? null)) continue;
      try {
        await setSelection.mutateAsync({ clientId, scope, attributes: edited[scope]! });
      } catch (e) {
        setFailure(`${a("sel.failed", { scope })} ${messageOf(e, t)}`);
        return false;
      }
    }
    await queryClient.invalidateQueries(trpc.console.attributes.selections.queryFilter({ clientId }));
    return true;
  }

  return { stored, catalog, choiceOf, choose: (scope: TScope, next: string[] | null) => setEdited((e) => ({ ...e, [scope]: next })), saveChanged, failure };
}

type TSelections = ReturnType<typeof useAttributeSelections>;

function ScopeChoice({ scope, names, selections }: { scope: TScope; names: string[]; selections: TSelections }) {
  const a = useAttributesText();
  const chosen = selections.choiceOf(scope);
  // A name the catalog dropped since the choice was stored would be refused on save.
  const known = (list: string[]) => list.filter((n) => names.includes(n));
  const mode = (all: boolean) => (
    <label className="ui-field ui-field--check">
      <input
        type="radio"
        className="ui-check"
        name={`attribute-selection-${scope}`}
        checked={all ? chosen === null : chosen !== null}
        onChange={() => selections.choose(scope, all ? null : known(chosen ?? names))}
      />
      <span className="ui-field__label">{all ? a("sel.all") : a("sel.some")}</span>
    </label>
  );
  return (
    <fieldset className="attr-selection">
      <legend>{scope}</legend>
      <div className="attr-selection__modes">
        {mode(true)}
        {mode(false)}
      </div>
      {chosen === null ? null : (
        <fieldset className="attr-selection__list">
          <legend className="ui-visually-hidden">{a("sel.chosen", { scope })}</legend>
          {names.map((name) => (
            <CheckboxField
              key={name}
              label={name}
              checked={chosen.includes(name)}
              onChange={(e) => selections.choose(scope, known(e.target.checked ? [...chosen, name] : chosen.filter((n) => n !== name)))}
            />
          ))}
        </fieldset>
      )}
    </fieldset>
  );
}

/** The contract's "OAuth 2.0 tab, scopes block": which attributes each scope gives the client. */
export function AttributeSelections({ selections }: { selections: TSelections }) {
  const { t } = useI18n();
  const a = useAttributesText();
  const { stored, catalog } = selections;
  const failed = stored.error ?? catalog.error;
  return (
    <section className="attr-selections" aria-labelledby="attr-selections-title">
      <h3 id="attr-selections-title" className="ui-field__label attr-selections__title">
        {a("sel.title")}
      </h3>
      <p className="muted attr-selections__intro">{a("sel.intro")}</p>
      {selections.failure ? (
        <p className="ui-alert ui-alert--error" role="alert">
          {selections.failure}
        </p>
      ) : null}
      {failed ? (
        <p className="ui-alert ui-alert--error" role="alert">
          {a("sel.loadFailed")} {messageOf(failed, t)}
        </p>
      ) : stored.isPending || catalog.isPending ? (
        <p className="muted" role="status">
          {a("sel.loading")}
        </p>
      ) : (
        SCOPES.map((scope) => <ScopeChoice key={scope} scope={scope} names={catalog.data!.map((d) => d.name)} selections={selections} />)
      )}
    </section>
  );
}
