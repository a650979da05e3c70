"use client";
import type { CSSProperties } from "react";
import { ACCENT_PATTERN, accentShades } from "@/server/branding/branding.shared";
import { useBrandingText } from "./i18n.ts";

export type TPreviewValues = { productName: string; accentColour: string; termsUrl: string; privacyUrl: string; logoUrl: string | null };

// The sign-in pages' own colours (server/html/layout.ts), per scheme, and their built-in accent.
const SCHEMES = {
  light: { bg: "#f4f5f7", card: "#fff", text: "#1b1f24", muted: "#57606a", line: "#c9d1d9", accent: { fill: "#0b5cad", text: "#fff", ink: "#0b5cad" } },
  dark: { bg: "#0d1117", card: "#161b22", text: "#e6edf3", muted: "#9da7b3", line: "#3d444d", accent: { fill: "#4493f8", text: "#0d1117", ink: "#4493f8" } },
};

/** A sign-in card drawn with the values as typed (the same shades the pages will use), in one colour scheme. */
function PreviewCard({ values, scheme }: { values: TPreviewValues; scheme: "light" | "dark" }) {
  const b = useBrandingText();
  const page = SCHEMES[scheme];
  const accent = ACCENT_PATTERN.test(values.accentColour) ? accentShades(values.accentColour)[scheme] : page.accent;
  const name = values.productName.trim();
  const style = { "--pv-bg": page.bg, "--pv-card": page.card, "--pv-text": page.text, "--pv-muted": page.muted, "--pv-line": page.line, "--pv-fill": accent.fill, "--pv-on-fill": accent.text, "--pv-ink": accent.ink } as CSSProperties;
  return (
    <figure className="brand-preview" style={style} data-testid={`preview-${scheme}`}>
      <figcaption className="brand-preview__caption">{b(scheme === "light" ? "branding.previewLight" : "branding.previewDark")}</figcaption>
      {values.logoUrl || name ? (
        <div className="brand-preview__header">
          {values.logoUrl ? <img src={values.logoUrl} alt={name || b("branding.previewLogoAlt")} /> : null}
          {name ? <span aria-hidden={values.logoUrl ? true : undefined}>{name}</span> : null}
        </div>
      ) : null}
      <div className="brand-preview__card">
        <p className="brand-preview__title">{b("branding.previewHeading")}</p>
        <p className="brand-preview__label">{b("branding.previewLogin")}</p>
        <div className="brand-preview__input" />
        <span className="brand-preview__button">{b("branding.previewSubmit")}</span>
        <span className="brand-preview__link">{b("branding.previewForgot")}</span>
      </div>
      {values.termsUrl.trim() || values.privacyUrl.trim() ? (
        <p className="brand-preview__footer">
          {values.termsUrl.trim() ? <span className="brand-preview__link">{b("branding.previewTerms")}</span> : null}
          {values.privacyUrl.trim() ? <span className="brand-preview__link">{b("branding.previewPrivacy")}</span> : null}
        </p>
      ) : null}
    </figure>
  );
}

/** The preview in both colour schemes: the pages follow the visitor's. */
export function BrandingPreview({ values }: { values: TPreviewValues }) {
  const b = useBrandingText();
  return (
    <section className="brand-previews" aria-labelledby="brand-preview-title">
      <h2 id="brand-preview-title" className="brand-previews__title">
        {b("branding.preview")}
      </h2>
      <div className="brand-previews__row">
        <PreviewCard values={values} scheme="light" />
        <PreviewCard values={values} scheme="dark" />
      </div>
    </section>
  );
}
