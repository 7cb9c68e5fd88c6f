// Ports for servers a test starts in another process, decided before it listens: below Linux's
// ephemeral range (32768-60999), so no outgoing connection elsewhere in the suite can hold one
// (a random port in that range once met EADDRINUSE). Each kind of server has its own band of
// 5,000, and Playwright workers running at once (different TEST_PARALLEL_INDEX) their own 1,000 of it.
const BANDS = { e2eApp: 20_000, productionStart: 10_000, accountsSmtp: 15_000, postgres: 25_000 } as const;

export function portBelowEphemeral(band: keyof typeof BANDS): number {
  const lane = Number(process.env.TEST_PARALLEL_INDEX ?? 0) % 5;
  return BANDS[band] + lane * 1_000 + Math.floor(Math.random() * 1_000);
}
