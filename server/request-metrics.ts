// HTTP request durations for GET /metrics, counted on the hot path without building a string:
// prom-client's observe() makes a label key per call, so the series live in nested maps here and
// are written in the Prometheus text format at scrape time (docs/decisions/091-metrics-through-the-web.md).

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type Series = { buckets: number[]; sum: number; count: number };

const byRoute = new Map<string, Map<string, Map<number, Series>>>();

/** One answered request: its route (a template, never the raw path), method, status and duration. */
export function observeRequest(route: string, method: string, status: number, seconds: number): void {
  let byMethod = byRoute.get(route);
  if (!byMethod) byRoute.set(route, (byMethod = new Map()));
  let byStatus = byMethod.get(method);
  if (!byStatus) byMethod.set(method, (byStatus = new Map()));
  let series = byStatus.get(status);
  if (!series) byStatus.set(status, (series = { buckets: BUCKETS.map(() => 0), sum: 0, count: 0 }));
  series.sum += seconds;
  series.count += 1;
  for (let i = 0; i < BUCKETS.length; i++) if (seconds <= BUCKETS[i]) series.buckets[i] += 1;
}

const label = (value: string) => value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");

export type HistogramSeries = {
  labels: Record<string, string | number>;
  buckets: number[];
  sum: number;
  count: number;
};

/** A histogram in the Prometheus text format, from cumulative bucket counts. */
export function histogramText(name: string, help: string, bounds: number[], series: HistogramSeries[]): string {
  const lines = [`# HELP ${name} ${help}`, `# TYPE ${name} histogram`];
  for (const { labels, buckets, sum, count } of series) {
    const pairs = Object.entries(labels).map(([key, value]) => `${key}="${label(String(value))}",`);
    const prefix = pairs.join("");
    const plain = prefix.replace(/,$/, "");
    bounds.forEach((bound, i) => lines.push(`${name}_bucket{${prefix}le="${bound}"} ${buckets[i]}`));
    lines.push(`${name}_bucket{${prefix}le="+Inf"} ${count}`);
    lines.push(`${name}_sum${plain ? `{${plain}}` : ""} ${sum}`);
    lines.push(`${name}_count${plain ? `{${plain}}` : ""} ${count}`);
  }
  return `${lines.join("\n")}\n`;
}

/** http_request_duration_seconds in the Prometheus text format. */
export function requestMetricsText(): string {
  const series: HistogramSeries[] = [];
  for (const [route, byMethod] of byRoute) {
    for (const [method, byStatus] of byMethod) {
      for (const [status, { buckets, sum, count }] of byStatus) {
        series.push({ labels: { route, method, status }, buckets, sum, count });
      }
    }
  }
  return histogramText(
    "http_request_duration_seconds",
    "HTTP requests by route template, method and status.",
    BUCKETS,
    series,
  );
}
