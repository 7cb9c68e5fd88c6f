import { log, logs } from "#app/utils/log.server.ts";

/** `full`: a line per API request; `summary`: failures and slow requests a line each, the rest one line per window. */
export type AccessLogMode = "full" | "summary";

// Durations are kept per millisecond up to this; longer ones count here (the exact maximum is kept apart).
const LONGEST_MS = 10_000;

/**
 * The REST API's access log (decision 117). A bulk sender makes thousands of requests a second, and
 * a line each was most of what the API's logging cost; in `summary` mode a request that failed on
 * our side (5xx) or took `slowMs` or more still gets its own line, and every request is counted into
 * one line per `windowMs` that had traffic: requests, statuses, p50, p99 and the longest duration.
 */
export class ApiAccessLog {
  private requests = 0;
  private readonly statuses = new Map<number, number>();
  private readonly durations = new Uint32Array(LONGEST_MS + 1);
  private longest = 0;
  private windowStart = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  private readonly mode: AccessLogMode;
  private readonly slowMs: number;
  private readonly windowMs: number;

  constructor(mode: AccessLogMode, slowMs: number, windowMs = 10_000) {
    this.mode = mode;
    this.slowMs = slowMs;
    this.windowMs = windowMs;
  }

  /** One answered API request; `ms` its duration. Call inside the request's log context. */
  record(method: string, route: string, status: number, ms: number): void {
    if (this.mode === "full") return log("info", "http", `${method} ${route} ${status}`, { ms });
    if (status >= 500 || ms >= this.slowMs) log("warn", "http", `${method} ${route} ${status}`, { ms });
    else if (logs("debug")) log("debug", "http", `${method} ${route} ${status}`, { ms });
    if (this.requests === 0) {
      this.windowStart = performance.now();
      // One timer per window, not per request; it does not keep a stopping process alive.
      this.timer = setTimeout(() => this.flush(), this.windowMs);
      this.timer.unref();
    }
    this.requests++;
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
    this.durations[Math.min(ms, LONGEST_MS)]++;
    if (ms > this.longest) this.longest = ms;
  }

  /** Writes the window's summary line, if it had requests, and starts a new window. */
  flush(): void {
    clearTimeout(this.timer);
    if (this.requests === 0) return;
    const statuses = [...this.statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status}:${count}`)
      .join(" ");
    log("info", "http", `API ${this.requests} requests`, {
      requests: this.requests,
      statuses,
      p50_ms: this.percentile(0.5),
      p99_ms: this.percentile(0.99),
      max_ms: this.longest,
      seconds: Math.round((performance.now() - this.windowStart) / 100) / 10,
    });
    this.requests = 0;
    this.statuses.clear();
    this.durations.fill(0);
    this.longest = 0;
  }

  /** The smallest duration that at least `share` of the window's requests took no longer than. */
  private percentile(share: number): number {
    const wanted = Math.ceil(this.requests * share);
    let seen = 0;
    for (let ms = 0; ms <= LONGEST_MS; ms++) {
      seen += this.durations[ms];
      if (seen >= wanted) return Math.min(ms, this.longest);
    }
    return this.longest;
  }
}
