import type { Metric, Registry } from "prom-client";
import { operationLabel, statusClass } from "./labels.ts";

/**
 * The per-request series: answers by operation and status (a counter) and their latency by
 * operation and status class (a histogram). Counted here rather than by prom-client's Counter and
 * Histogram, which hash the label object of every inc() and observe(): inside the server that cost
 * more than the rest of the request's bookkeeping (bench/README.md). Each operation's figures hang on
 * the operation itself; a scrape turns them into prom-client's metric objects, so the exposition and
 * the sum over the workers of a cluster (AggregatorRegistry) stay prom-client's.
 */
type THistogram = { labels: { operation: string; status_class: string }; buckets: number[]; sum: number; count: number };
type TOperationSeries = {
  operation: string;
  statuses: Map<number, { labels: { operation: string; status: string }; value: number }>;
  /** By status class, 1xx … 5xx at 1 … 5, anything else at 0. */
  classes: (THistogram | undefined)[];
};

export type TRequestSeries = {
  observe(op: { method: string; path: string } | undefined, status: number, seconds: number): void;
};

/** Registers both series in `registry`; `buckets` are the histogram's upper bounds in seconds, ascending. */
export function requestSeries(registry: Registry, opts: { requests: { name: string; help: string }; duration: { name: string; help: string; buckets: number[] } }): TRequestSeries {
  const byOperation = new WeakMap<object, TOperationSeries>();
  const other = newSeries(operationLabel(undefined));
  const all: TOperationSeries[] = [other];
  const bounds = opts.duration.buckets;

  function newSeries(operation: string): TOperationSeries {
    return { operation, statuses: new Map(), classes: [] };
  }

  function seriesOf(op: { method: string; path: string } | undefined): TOperationSeries {
    if (!op) return other;
    let s = byOperation.get(op);
    if (!s) {
      s = newSeries(operationLabel(op));
      byOperation.set(op, s);
      all.push(s);
    }
    return s;
  }

  const counter = metricOf(opts.requests, "counter", () => all.flatMap((s) => [...s.statuses.values()].map((v) => ({ labels: { ...v.labels }, value: v.value }))), () => all.forEach((s) => s.statuses.clear()));
  const bucketName = `${opts.duration.name}_bucket`;
  // As prom-client's Histogram.get(): cumulative buckets labelled `le`, then +Inf, _sum and _count.
  const histogram = metricOf(
    opts.duration,
    "histogram",
    () =>
      all.flatMap((s) =>
        s.classes.flatMap((h) => {
          if (!h) return [];
          let acc = 0;
          return [
            ...bounds.map((le, i) => ({ labels: { le, ...h.labels }, value: (acc += h.buckets[i]!), metricName: bucketName })),
            { labels: { le: "+Inf", ...h.labels }, value: h.count, metricName: bucketName },
            { labels: { ...h.labels }, value: h.sum, metricName: `${opts.duration.name}_sum` },
            { labels: { ...h.labels }, value: h.count, metricName: `${opts.duration.name}_count` },
          ];
        }),
      ),
    () => all.forEach((s) => (s.classes = [])),
  );

  // A metric for the registry is anything with a name, a type and get(): what Registry reads.
  registry.registerMetric(counter);
  registry.registerMetric(histogram);

  return {
    observe(op, status, seconds) {
      const s = seriesOf(op);
      const counted = s.statuses.get(status);
      if (counted) counted.value += 1;
      else s.statuses.set(status, { labels: { operation: s.operation, status: String(status) }, value: 1 });
      const cls = status >= 100 && status < 600 ? Math.floor(status / 100) : 0;
      const h = (s.classes[cls] ??= { labels: { operation: s.operation, status_class: statusClass(status) }, buckets: bounds.map(() => 0), sum: 0, count: 0 });
      // The smallest bound at or above the value (prom-client counts `value <= le`); past the last
      // one, only +Inf (the count) holds it.
      for (let i = 0; i < bounds.length; i++) {
        if (seconds <= bounds[i]!) {
          h.buckets[i]! += 1;
          break;
        }
      }
      h.sum += seconds;
      h.count += 1;
    },
  };
}

type TValue = { labels: Record<string, string | number>; value: number; metricName?: string };

/**
 * A metric as Registry reads it (name, help, type, aggregator, get(), reset()): the object that
 * prom-client's own metrics give a scrape, made from `values` at the time of the scrape.
 */
function metricOf(def: { name: string; help: string }, type: "counter" | "histogram", values: () => TValue[], reset: () => void): Metric {
  const head = { name: def.name, help: def.help, type, aggregator: "sum" as const };
  return { ...head, get: async () => ({ ...head, values: values() }), reset } as unknown as Metric;
}
