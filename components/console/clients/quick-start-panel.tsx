"use client";
import { useState } from "react";
import type { TConsoleClient } from "../trpc.ts";
import { CopyButton } from "./copy-button.tsx";
import { useClientsText } from "./i18n.ts";
import { quickStartSnippets } from "./quick-start.ts";

/** The application's code for the common stacks, one tab each (WAI-ARIA tabs: arrows move between them). */
export function QuickStartPanel({ client, endpoints }: { client: TConsoleClient; endpoints: { issuer: string; token: string } }) {
  const c = useClientsText();
  const snippets = quickStartSnippets(client, endpoints);
  const [current, setCurrent] = useState(0);
  const snippet = snippets[Math.min(current, snippets.length - 1)]!;
  const move = (to: number) => {
    const next = (to + snippets.length) % snippets.length;
    setCurrent(next);
    document.getElementById(`quick-tab-${next}`)?.focus();
  };
  return (
    <section className="app-section" aria-labelledby="app-quick-start">
      <h2 id="app-quick-start" className="app-section__title">
        {c("page.quickStart")}
      </h2>
      <p className="muted">{c("page.quickStartHint")}</p>
      <div role="tablist" aria-label={c("page.quickStart")} className="app-tabs">
        {snippets.map((s, i) => (
          <button
            key={s.key}
            id={`quick-tab-${i}`}
            type="button"
            role="tab"
            className="app-tabs__tab"
            aria-selected={i === current}
            aria-controls="quick-panel"
            tabIndex={i === current ? 0 : -1}
            onClick={() => setCurrent(i)}
            onKeyDown={(e) => {
              if (e.key === "ArrowRight") move(i + 1);
              if (e.key === "ArrowLeft") move(i - 1);
            }}
          >
            {s.title}
          </button>
        ))}
      </div>
      <div id="quick-panel" role="tabpanel" aria-labelledby={`quick-tab-${current}`} className="app-snippet">
        <div className="app-snippet__bar">
          <CopyButton value={snippet.code} what={snippet.title} />
        </div>
        <pre tabIndex={0} aria-label={snippet.title}>
          <code>{snippet.code}</code>
        </pre>
      </div>
    </section>
  );
}
