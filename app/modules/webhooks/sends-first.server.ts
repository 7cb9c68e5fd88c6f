// Webhook pushes are background work: while this process is sending and its event loop is busy at
// least half the time, a delivery job waits (until its pushes are 10 s overdue at most), so sending
// keeps its pace and the pushes catch up when the burst is over
// (docs/decisions/100-webhook-pushes-yield-to-sending.md).
import { performance } from "node:perf_hooks";
import { smsCounters } from "#app/modules/health/sms-counters.server.ts";

export type SendsFirstOptions = {
  /** A number that grows with every message submitted, failed or retried and every receipt applied. */
  sendingActivity: () => number;
  /** The event loop's utilization (0-1) since the previous call. */
  loopUtilization: () => number;
  /** Calls `sample` every so often until the returned function is called (default: every 250 ms). */
  everySample: (sample: () => void) => () => void;
  /** Epoch milliseconds, as the `dueAt` given to waitTurn. */
  now: () => number;
  /** Busy: at least this utilization over a sample in which sending went on. */
  busyUtilization: number;
  /** The most a push is held after it became due: under sustained full load the lag stays bounded. */
  maxLagMs: number;
};

type Waiter = { resume: () => void; until: number };

/**
 * `waitTurn(dueAt)` resolves at once when the process was not busy at the last sample and has sent
 * nothing since, else when a sample finds it not busy or at `dueAt + maxLagMs`, whichever comes first.
 */
export function createSendsFirst(options: SendsFirstOptions) {
  let busy: boolean | undefined;
  let lastActivity = options.sendingActivity();
  let waiters: Waiter[] = [];
  let stopSampling: (() => void) | undefined;

  function sample() {
    const activity = options.sendingActivity();
    busy = activity !== lastActivity && options.loopUtilization() >= options.busyUtilization;
    lastActivity = activity;
    const now = options.now();
    const due = busy ? waiters.filter((waiter) => waiter.until <= now) : waiters;
    waiters = busy ? waiters.filter((waiter) => waiter.until > now) : [];
    for (const waiter of due) waiter.resume();
  }

  return {
    waitTurn(dueAt: number): Promise<void> {
      const until = dueAt + options.maxLagMs;
      if (!stopSampling) {
        options.loopUtilization();
        stopSampling = options.everySample(sample);
      } else if (until <= options.now() || (busy === false && options.sendingActivity() === lastActivity)) {
        return Promise.resolve();
      }
      // Busy, not known yet (the first sample is one interval away), or sending began since: a burst
      // starting would otherwise let every job taken before the next sample push during it.
      return new Promise((resume) => waiters.push({ resume, until }));
    },
    stop() {
      stopSampling?.();
      stopSampling = undefined;
      busy = undefined;
      for (const waiter of waiters.splice(0)) waiter.resume();
    },
  };
}

let lastLoop = performance.eventLoopUtilization();

/** This process's instance: its sending counters, its event loop. */
export const sendsFirst = createSendsFirst({
  sendingActivity: () => {
    const counters = smsCounters();
    return counters.submitted + counters.failed + counters.retried + counters.receipts;
  },
  loopUtilization: () => {
    const now = performance.eventLoopUtilization();
    const { utilization } = performance.eventLoopUtilization(now, lastLoop);
    lastLoop = now;
    return utilization;
  },
  everySample: (sample) => {
    const timer = setInterval(sample, 250).unref();
    return () => clearInterval(timer);
  },
  // BullMQ stamps jobs with Date.now(), not the app's (injectable) clock.
  now: () => Date.now(),
  busyUtilization: 0.5,
  // Longer than a burst of tens of thousands of messages lasts; a longer overload shares the loop.
  maxLagMs: 10_000,
});
