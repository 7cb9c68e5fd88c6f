// Webhook pushes are background work: while this process is sending and its event loop is busy at
// least half the time, a delivery job waits (2 s at most), so sending keeps its pace and the pushes
// catch up when the burst is over (docs/decisions/100-webhook-pushes-yield-to-sending.md).
import { performance } from "node:perf_hooks";
import { smsCounters } from "#app/modules/sms/sms-counters.server.ts";

export type SendsFirstOptions = {
  /** A number that grows with every message submitted, failed or retried and every receipt applied. */
  sendingActivity: () => number;
  /** The event loop's utilization (0-1) since the previous call. */
  loopUtilization: () => number;
  /** Calls `sample` every so often until the returned function is called (default: every 250 ms). */
  everySample: (sample: () => void) => () => void;
  /** Milliseconds, for the longest wait. */
  now: () => number;
  /** Busy: at least this utilization over a sample in which sending went on. */
  busyUtilization: number;
  /** The longest a job waits: under sustained full load, pushes still go at a floor pace. */
  maxWaitMs: number;
};

type Waiter = { resume: () => void; until: number };

/** `waitTurn()` resolves at once when the process is not busy sending, else when it stops being so (or maxWaitMs passed). */
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
    waitTurn(): Promise<void> {
      if (!stopSampling) {
        options.loopUtilization();
        stopSampling = options.everySample(sample);
      } else if (busy === false) {
        return Promise.resolve();
      }
      // Busy, or not known yet (the first sample is one interval away).
      return new Promise((resume) => waiters.push({ resume, until: options.now() + options.maxWaitMs }));
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
  now: () => performance.now(),
  busyUtilization: 0.5,
  // With 10 jobs of 25 at once: about 125 pushes a second still go while sending holds the loop.
  maxWaitMs: 2_000,
});
