// The benchmark's SMSC, in its own process so its CPU is not the load generator's: accepts every
// submit_sm, sends a DELIVRD receipt for each, texts back once per BENCH_INBOUND_EVERY submits (an
// inbound deliver_sm; 0 = never), and counts (no recording: 20,000+ messages). With
// BENCH_KEEP_TEXTS set it also keeps the text of each accepted submit starting with it (the
// failover phase's messages, to find the ones both SMSCs took), and "kill" stops it for good
// (connections cut, unanswered submits never answered) while it still answers "stats" and "texts".
import { defaultDuplicateKey, TestSmsc } from "#tests/support/smpp-server.ts";

const keepPrefix = process.env.BENCH_KEEP_TEXTS;
const kept: string[] = [];
const smsc = await TestSmsc.start({
  record: false,
  receiptDelayMs: 0,
  // A distant carrier's answer time (--carrier-delay).
  responseDelayMs: Number(process.env.BENCH_RESPONSE_DELAY_MS ?? 0),
  inboundEvery: Number(process.env.BENCH_INBOUND_EVERY ?? 0),
  ...(keepPrefix && {
    duplicateKey: (submit) => {
      if (submit.text.startsWith(keepPrefix)) kept.push(submit.text);
      return defaultDuplicateKey(submit);
    },
  }),
});
process.send?.({ type: "ready", port: smsc.port, url: smsc.url() });
process.on("message", (message: { type: string }) => {
  if (message.type === "stats") process.send?.({ type: "stats", counters: smsc.counters, bound: smsc.boundSessions });
  if (message.type === "texts") process.send?.({ type: "texts", texts: kept });
  if (message.type === "kill") void smsc.stop().then(() => process.send?.({ type: "killed" }));
  if (message.type === "stop") void smsc.stop().then(() => process.exit(0));
});
