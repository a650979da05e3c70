import { AggregatorRegistry, Counter, Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { operationLabel, statusClass } from "./labels.ts";
import { requestSeries } from "./request-series.ts";

// The request series must read, in a scrape and summed over a cluster's workers, exactly as
// prom-client's own Counter and Histogram would have read after the same requests.
const requests = { name: "t_requests_total", help: "Requests." };
const duration = { name: "t_duration_seconds", help: "Duration.", buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] };

function pair() {
  const ours = new Registry();
  const series = requestSeries(ours, { requests, duration });
  const theirs = new Registry();
  const counter = new Counter({ ...requests, labelNames: ["operation", "status"], registers: [theirs] });
  const histogram = new Histogram({ ...duration, labelNames: ["operation", "status_class"], registers: [theirs] });
  return {
    ours,
    theirs,
    observe(op: { method: string; path: string } | undefined, status: number, seconds: number) {
      series.observe(op, status, seconds);
      const operation = operationLabel(op);
      counter.inc({ operation, status: String(status) });
      histogram.observe({ operation, status_class: statusClass(status) }, seconds);
    },
  };
}

const sorted = (text: string) => text.split("\n").sort();
const ops = [
  { method: "GET", path: "/api/v3/users/{subjectId}/auth" },
  { method: "POST", path: "/oauth/te" },
  { method: "GET", path: "/health/live" },
];

describe("requestSeries", () => {
  it("scrapes as prom-client's Counter and Histogram do after the same requests, bucket edges included", async () => {
    const { ours, theirs, observe } = pair();
    const statuses = [200, 204, 400, 401, 404, 500, 99, 600];
    const seconds = [0, 0.001, 0.002, 0.0020001, 0.005, 0.3, 1, 10, 10.5, 120];
    let i = 0;
    for (const s of seconds) for (const status of statuses) observe(i++ % 4 === 3 ? undefined : ops[i % 3], status, s);
    const text = await ours.metrics();
    expect(sorted(text)).toEqual(sorted(await theirs.metrics()));
    expect(text).toContain('t_duration_seconds_bucket{le="0.002",operation="GET /api/v3/users/{subjectId}/auth",status_class="2xx"}');
    expect(text).toContain('t_requests_total{operation="other",status="401"} 10');
  });

  it("sums over a cluster's workers as prom-client's aggregation does", async () => {
    const a = pair();
    const b = pair();
    a.observe(ops[0], 200, 0.003);
    a.observe(ops[1], 401, 0.02);
    b.observe(ops[0], 200, 0.004);
    b.observe(undefined, 404, 0.001);
    const sum = async (regs: Registry[]) => (await AggregatorRegistry.aggregate(await Promise.all(regs.map((r) => r.getMetricsAsJSON()))).metrics());
    const ours = await sum([a.ours, b.ours]);
    expect(sorted(ours)).toEqual(sorted(await sum([a.theirs, b.theirs])));
    expect(ours).toContain('t_requests_total{operation="GET /api/v3/users/{subjectId}/auth",status="200"} 2');
  });

  it("starts over after reset, as the registry's resetMetrics() asks", async () => {
    const { ours, observe } = pair();
    observe(ops[0], 200, 0.01);
    ours.resetMetrics();
    expect(await ours.metrics()).not.toMatch(/^t_/m);
    observe(ops[0], 200, 0.01);
    expect(await ours.metrics()).toContain('t_requests_total{operation="GET /api/v3/users/{subjectId}/auth",status="200"} 1');
  });
});
