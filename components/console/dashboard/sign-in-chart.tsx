"use client";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { useI18n } from "../../i18n-provider.tsx";
import { useDashText } from "./i18n.ts";

export type TBucket = { at: string; signedIn: number; failed: number };

/**
 * Sign-ins and failures per hour or per day, stacked, drawn by Recharts. The same figures are in a
 * table for screen readers (a chart's bars have no text of their own) and summed in its description.
 */
export function SignInChart({ id, title, buckets, unit }: { id: string; title: string; buckets: TBucket[]; unit: "hour" | "day" }) {
  const { lang } = useI18n();
  const d = useDashText();
  const format = new Intl.DateTimeFormat(lang === "ru" ? "ru-RU" : "en-GB", unit === "hour" ? { hour: "2-digit", minute: "2-digit" } : { day: "numeric", month: "short", timeZone: "UTC" });
  const label = (iso: string) => format.format(new Date(iso));
  const rows = buckets.map((b) => ({ ...b, label: label(b.at) }));
  const total = (k: "signedIn" | "failed") => String(buckets.reduce((n, b) => n + b[k], 0));
  return (
    <figure className="dash-chart" aria-labelledby={`${id}-title`} aria-describedby={`${id}-summary`}>
      <figcaption id={`${id}-title`} className="dash-chart__title">
        {title}
      </figcaption>
      <p id={`${id}-summary`} className="ui-visually-hidden">
        {d("dash.chartSummary", { signedIn: total("signedIn"), failed: total("failed"), unit: d(unit === "hour" ? "dash.hour" : "dash.day") })}
      </p>
      <div className="dash-chart__plot" aria-hidden="true">
        <ResponsiveContainer width="100%" height={180}>
          <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: -16 }} accessibilityLayer={false}>
            <CartesianGrid vertical={false} stroke="var(--ui-border)" />
            <XAxis dataKey="label" tick={{ fill: "var(--ui-muted)", fontSize: 12 }} interval="preserveStartEnd" minTickGap={16} />
            <YAxis allowDecimals={false} tick={{ fill: "var(--ui-muted)", fontSize: 12 }} />
            <Tooltip contentStyle={{ background: "var(--ui-surface)", border: "1px solid var(--ui-border)", color: "var(--ui-text)" }} cursor={{ fill: "var(--ui-hover)" }} />
            <Legend />
            <Bar dataKey="signedIn" name={d("dash.signedIn")} stackId="s" fill="var(--ui-primary)" isAnimationActive={false} />
            <Bar dataKey="failed" name={d("dash.failed")} stackId="s" fill="var(--ui-danger)" isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <table className="ui-visually-hidden">
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col">{d("dash.when")}</th>
            <th scope="col">{d("dash.signedIn")}</th>
            <th scope="col">{d("dash.failed")}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.at}>
              <th scope="row">
                <time dateTime={r.at}>{r.label}</time>
              </th>
              <td>{r.signedIn}</td>
              <td>{r.failed}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
