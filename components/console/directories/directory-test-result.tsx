"use client";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";
import { useDirText, type TDirKey, type TDirText } from "./i18n.ts";

type TTest = inferRouterOutputs<AppRouter>["console"]["directories"]["test"];
type TStep = TTest["steps"][number];

/** A step's sentence: what worked, or where and why it stopped. */
function stepLine(d: TDirText, r: TTest, s: TStep, names: { loginAttribute: string; idAttribute: string }): string {
  const problem = s.problem ? d(`test.problem.${s.problem}` as TDirKey, names) : "";
  const where = `${r.endpoint.host}:${r.endpoint.port}`;
  if (!s.ok) return d(`test.${s.step}.failed` as TDirKey, { where, problem });
  if (s.step === "connect") return d("test.connect.ok", { where, tls: d(`test.tls.${r.endpoint.tls}`) });
  if (s.step === "search") return d(r.found?.more ? "test.search.more" : "test.search.ok", { count: String(r.found?.count ?? 0) });
  return d(`test.${s.step}.ok` as TDirKey);
}

const shown = (v: unknown) => (v && typeof v === "object" && "value" in v ? String((v as { value: unknown }).value) : String(v));

/** The steps of a connection test, each with its outcome; the sample entry as it would be here. */
export function DirectoryTestResult({ result, names }: { result: TTest; names: { loginAttribute: string; idAttribute: string } }) {
  const d = useDirText();
  const attributes = Object.entries(result.sample?.attributes ?? {});
  return (
    <section className="dir-test" aria-labelledby="dir-test-title">
      <h3 id="dir-test-title">{d("test.title")}</h3>
      <p className={result.ok ? "dir-test__verdict" : "dir-test__verdict dir-test__verdict--failed"}>{d(result.ok ? "test.ok" : "test.failed")}</p>
      <ol className="dir-test__steps">
        {result.steps.map((s) => (
          <li key={s.step} className={s.ok ? "dir-test__step--ok" : "dir-test__step--failed"}>
            {stepLine(d, result, s, names)}
            {s.detail ? <code className="dir-test__detail">{s.detail}</code> : null}
          </li>
        ))}
      </ol>
      {result.sample ? (
        <dl className="dir-test__sample">
          <dt>{d("test.sample.dn")}</dt>
          <dd><code>{result.sample.dn}</code></dd>
          <dt>{d("test.sample.login")}</dt>
          <dd>{result.sample.login ?? "—"}</dd>
          <dt>{d("test.sample.id")}</dt>
          <dd><code>{result.sample.externalId ?? "—"}</code></dd>
          <dt>{d("test.sample.attributes")}</dt>
          <dd>{attributes.length ? attributes.map(([k, v]) => <div key={k}><code>{k}</code>: {shown(v)}</div>) : d("test.sample.none")}</dd>
        </dl>
      ) : null}
    </section>
  );
}
