"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useState, type ChangeEvent, type FormEvent } from "react";
import { ACCENT_PATTERN, LOGO_MAX_BYTES } from "@/server/branding/branding.shared";
import type { AppRouter } from "@/server/trpc/root";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { TextField } from "../../ui/field.tsx";
import { fieldErrorsOf, messageOf } from "../call-errors.ts";
import { QueryStates } from "../list-parts.tsx";
import { useTRPC } from "../trpc.ts";
import { BrandingPreview } from "./branding-preview.tsx";
import { useBrandingText, type TBrandingKey } from "./i18n.ts";
import "./branding.css";

type TBranding = inferRouterOutputs<AppRouter>["console"]["branding"]["get"];
type TDraft = { productName: string; accentColour: string; termsUrl: string; privacyUrl: string };
type TField = keyof TDraft;

const toDraft = (b: TBranding): TDraft => ({ productName: b.productName ?? "", accentColour: b.accentColour ?? "", termsUrl: b.termsUrl ?? "", privacyUrl: b.privacyUrl ?? "" });
// An empty field is the built-in look for that part.
const orNull = (s: string) => (s.trim() === "" ? null : s.trim());

// The server names the refused field; the sentence is the console's, in the reader's language.
const FIELD_ERRORS: Record<TField, TBrandingKey> = { productName: "branding.error.productName", accentColour: "branding.error.accentColour", termsUrl: "branding.error.url", privacyUrl: "branding.error.url" };

/** The file's bytes as base64, for the upload (the server checks what they are). */
function readBase64(file: File): Promise<string> {
  return file.arrayBuffer().then((buf) => {
    let binary = "";
    for (const byte of new Uint8Array(buf)) binary += String.fromCharCode(byte);
    return btoa(binary);
  });
}

function useInvalidate() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return (saved: TBranding) => queryClient.setQueryData(trpc.console.branding.get.queryKey(), saved);
}

function LogoField({ branding }: { branding: TBranding }) {
  const b = useBrandingText();
  const trpc = useTRPC();
  const update = useInvalidate();
  const [tooLarge, setTooLarge] = useState(false);
  const upload = useMutation(trpc.console.branding.uploadLogo.mutationOptions({ onSuccess: update }));
  const remove = useMutation(trpc.console.branding.removeLogo.mutationOptions({ onSuccess: update }));
  const choose = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = "";
    if (!file) return;
    setTooLarge(file.size > LOGO_MAX_BYTES);
    if (file.size > LOGO_MAX_BYTES) return;
    // The browser's guess of the type goes as it is: the server tells the type from the bytes.
    upload.mutate({ type: file.type as "image/png", data: await readBase64(file) });
  };
  const logo = branding.logo;
  return (
    <fieldset>
      <legend>{b("branding.logo")}</legend>
      <p className="muted">{logo ? b("branding.logoCurrent", { type: logo.type, size: (logo.size / 1024).toFixed(1) }) : b("branding.logoNone")}</p>
      <div className="branding__logo">
        <TextField label={b("branding.logoChoose")} hint={b("branding.logoHint")} type="file" accept="image/png,image/jpeg,image/webp" onChange={(e) => void choose(e)} disabled={upload.isPending} />
        {logo ? (
          <Button onClick={() => remove.mutate()} disabled={remove.isPending}>
            {b("branding.logoRemove")}
          </Button>
        ) : null}
      </div>
      {upload.isPending ? <p role="status">{b("branding.logoUploading")}</p> : null}
      {tooLarge || upload.isError ? (
        <p className="ui-alert ui-alert--error" role="alert">
          {b("branding.logoRefused")}
        </p>
      ) : null}
    </fieldset>
  );
}

function BrandingForm({ branding }: { branding: TBranding }) {
  const { t } = useI18n();
  const b = useBrandingText();
  const trpc = useTRPC();
  const update = useInvalidate();
  const [draft, setDraft] = useState<TDraft>(() => toDraft(branding));
  const [confirming, setConfirming] = useState(false);
  const save = useMutation(trpc.console.branding.save.mutationOptions({ onSuccess: (saved) => (update(saved), setDraft(toDraft(saved))) }));
  const reset = useMutation(
    trpc.console.branding.reset.mutationOptions({
      onSuccess: (saved) => {
        update(saved);
        setDraft(toDraft(saved));
        setConfirming(false);
      },
    }),
  );
  const refused = save.isError ? fieldErrorsOf(save.error, t) : {};
  const errorOf = (field: TField) => (refused[field] ? b(FIELD_ERRORS[field]) : undefined);
  const field = (key: TField) => ({ value: draft[key], error: errorOf(key), onChange: (e: ChangeEvent<HTMLInputElement>) => setDraft((d) => ({ ...d, [key]: e.target.value })) });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    reset.reset();
    save.mutate({ productName: orNull(draft.productName), accentColour: orNull(draft.accentColour), termsUrl: orNull(draft.termsUrl), privacyUrl: orNull(draft.privacyUrl) });
  };
  return (
    <div className="branding__layout">
      <div className="branding__column">
        <form className="branding__column" onSubmit={submit} noValidate>
          <fieldset>
            <legend>{b("branding.texts")}</legend>
            <TextField label={b("branding.productName")} hint={b("branding.productNameHint")} maxLength={60} {...field("productName")} />
            <div className="branding__colour">
              <TextField label={b("branding.accent")} hint={b("branding.accentHint")} placeholder="#0b5cad" {...field("accentColour")} />
              <input type="color" className="branding__picker" aria-label={b("branding.accentPicker")} value={ACCENT_PATTERN.test(draft.accentColour) ? draft.accentColour.toLowerCase() : "#0b5cad"} onChange={(e) => setDraft((d) => ({ ...d, accentColour: e.target.value }))} />
            </div>
            <TextField label={b("branding.termsUrl")} hint={b("branding.urlHint")} type="url" placeholder="https://" {...field("termsUrl")} />
            <TextField label={b("branding.privacyUrl")} hint={b("branding.urlHint")} type="url" placeholder="https://" {...field("privacyUrl")} />
          </fieldset>
          <div className="branding__actions">
            <Button onClick={() => setConfirming(true)}>{b("branding.reset")}</Button>
            <Button type="submit" variant="primary" disabled={save.isPending} aria-busy={save.isPending}>
              {save.isPending ? b("branding.saving") : b("branding.save")}
            </Button>
          </div>
          {save.isSuccess ? (
            <p className="ui-alert ui-alert--info" role="status">
              {b("branding.saved")}
            </p>
          ) : null}
          {reset.isSuccess ? (
            <p className="ui-alert ui-alert--info" role="status">
              {b("branding.resetDone")}
            </p>
          ) : null}
          {save.isError && Object.keys(refused).length === 0 ? (
            <p className="ui-alert ui-alert--error" role="alert">
              {messageOf(save.error, t)}
            </p>
          ) : null}
        </form>
        <LogoField branding={branding} />
      </div>
      <BrandingPreview values={{ ...draft, logoUrl: branding.logo?.url ?? null }} />
      <ConfirmDialog
        open={confirming}
        title={b("branding.resetTitle")}
        body={b("branding.resetBody")}
        confirmLabel={b("branding.resetConfirm")}
        cancelLabel={b("branding.cancel")}
        danger
        pending={reset.isPending}
        error={reset.isError ? messageOf(reset.error, t) : undefined}
        onConfirm={() => reset.mutate()}
        onClose={() => setConfirming(false)}
      />
    </div>
  );
}

export function BrandingScreen() {
  const b = useBrandingText();
  const trpc = useTRPC();
  const branding = useQuery(trpc.console.branding.get.queryOptions());
  return (
    <section className="branding">
      <h1 className="page-title">{b("branding.title")}</h1>
      <p className="muted branding__intro">{b("branding.intro")}</p>
      <QueryStates query={branding} loading={b("branding.loading")}>
        {(data) => <BrandingForm branding={data} />}
      </QueryStates>
    </section>
  );
}
