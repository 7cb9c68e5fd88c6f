// The benchmark's SMSC, in its own process so its CPU is not the load generator's: accepts every
// submit_sm, sends a DELIVRD receipt for each, texts back once per BENCH_INBOUND_EVERY submits (an
// inbound deliver_sm; 0 = never), and counts (no recording: 20,000+ messages).
import { TestSmsc } from "#tests/support/smpp-server.ts";

const smsc = await TestSmsc.start({
  record: false,
  receiptDelayMs: 0,
  inboundEvery: Number(process.env.BENCH_INBOUND_EVERY ?? 0),
});
process.send?.({ type: "ready", port: smsc.port, url: smsc.url() });
process.on("message", (message: { type: string }) => {
  if (message.type === "stats") process.send?.({ type: "stats", counters: smsc.counters, bound: smsc.boundSessions });
  if (message.type === "stop") void smsc.stop().then(() => process.exit(0));
});
