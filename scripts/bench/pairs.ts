// Interleaved pairs: this build against another build's worktree, or against Kannel, on this machine.
//   npm run bench:pairs -- --against /work/wt/old [--pairs 5] [-- <bench options, e.g. --skip-pages --inbound-every 0>]
//   npm run bench:pairs -- --kannel [--pairs 5] [-- <bench options>]
//   npm run bench:pairs -- --engines [--pairs 5] [-- <bench options>]
//   npm run bench:pairs -- --against /work/wt/old --ours-options="--routes 200" [-- <bench options>]
// Both sides measure warm processes (the bench's warm-up, decision 148); a build whose bench has none
// is paired with ours measured cold (--warm-up 0), unless given scripts/bench/df52f25-warm-up.patch.
// Each pair runs both sides one after the other, the first side alternating from pair to pair, so
// warm-up and the machine's drift fall on both alike. The other build runs its own `npm run bench`
// code (scripts/bench/run.ts in its worktree, built and installed there: `git worktree add
// /work/wt/old df52f25 && cd /work/wt/old && npm ci`) with the same options, so give only options
// both builds know. Kannel: ../shared/peers/kannel/run.sh with N = --requests (default 20,000); its
// full cycle with receipts (`dlr_cycle`, `gw_cpu_us_per_msg_dlr`) against our e2e and gateway CPU.
// --engines: this build on PostgreSQL (`--postgres`, "ours") against this build on SQLite (issue 32's
// target: at least 0.5x). Prints each pair, then the medians of each side and of the per-pair ratios
// (ours / theirs). --ours-options gives this build's side options of its own on top (split at
// spaces), e.g. a feature the other build lacks: issue 33's routing and pricing cost, a 200-prefix
// route table (`--routes 200`) against the commit before routing.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { benchRun, median } from "./attribution.ts";

const { values: args, positionals } = parseArgs({
  options: {
    against: { type: "string" },
    kannel: { type: "boolean", default: false },
    engines: { type: "boolean", default: false },
    pairs: { type: "string", default: "5" },
    "kannel-script": { type: "string", default: "/work/shared/peers/kannel/run.sh" },
    "ours-options": { type: "string", default: "" },
  },
  allowPositionals: true,
});
if ([args.against !== undefined, args.kannel, args.engines].filter(Boolean).length !== 1) {
  console.error(
    'usage: pairs.ts --against <worktree> | --kannel | --engines [--pairs 5] [--ours-options="..."] [-- <bench options>]',
  );
  process.exit(2);
}
const benchArgs = positionals;
/**
 * Both sides measure warm processes or both cold ones (decision 148): a build whose bench has no
 * warm-up (before 2026-12-07, unless patched: scripts/bench/df52f25-warm-up.patch) is paired with ours
 * measured cold too.
 */
const theirsCold =
  args.against !== undefined &&
  !readFileSync(resolve(args.against, "scripts/bench/run.ts"), "utf8").includes('"warm-up"') &&
  !benchArgs.includes("--warm-up");
if (theirsCold)
  console.error(`[pairs] ${args.against}'s bench has no warm-up: ours runs with --warm-up 0, both sides cold`);
const ourArgs = [
  ...benchArgs,
  ...(theirsCold ? ["--warm-up", "0"] : []),
  ...args["ours-options"]!.split(" ").filter(Boolean),
];

/** What a pair compares: messages per second through to the receipt, and gateway CPU µs per message. */
type Side = { e2e: number; cpu: number; extra: string };

function ours(cwd = process.cwd(), runArgs = args.engines ? [...ourArgs, "--postgres"] : ourArgs): Promise<Side> {
  return benchRun(runArgs, cwd).then((run) => {
    const cpu = run.cpu_us_per_msg as {
      gateway: number;
      web: number;
      worker: number;
      redis: number;
      postgres?: number;
    };
    const hooks = run.webhooks as { e2e_per_s: number; baseline_e2e_per_s: number } | null | undefined;
    const webhooks = hooks ? `, webhooks ${Math.round((100 * hooks.e2e_per_s) / hooks.baseline_e2e_per_s)} %` : "";
    return {
      e2e: run.e2e_per_s as number,
      cpu: cpu.gateway,
      extra:
        `web/worker/Redis ${cpu.web}/${cpu.worker}/${cpu.redis} µs` +
        `${cpu.postgres === undefined ? "" : ` (PostgreSQL ${cpu.postgres} µs)`}, group ${String(run.group_10k_s)} s` +
        `${webhooks}, API p99 ${String(run.api_p99_ms)} ms, lost/dup ${String(run.lost)}/${String(run.duplicated)}` +
        (run.pgbench_select_tps ? `, pgbench ${String(run.pgbench_select_tps)} tps` : ""),
    };
  });
}

function kannel(): Promise<Side> {
  const requests = benchArgs.indexOf("--requests");
  const n = requests >= 0 ? benchArgs[requests + 1] : "20000";
  return new Promise((done, fail) => {
    const child = spawn("bash", [args["kannel-script"]!], {
      env: { ...process.env, N: n },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.on("exit", (code) => {
      const line = out.split("\n").find((l) => l.startsWith("SUMMARY "));
      if (code !== 0 || !line) return fail(new Error(`kannel run.sh exited ${code}`));
      const summary = JSON.parse(line.slice("SUMMARY ".length)) as Record<string, number>;
      done({
        e2e: Math.round(summary.dlr_cycle),
        cpu: summary.gw_cpu_us_per_msg_dlr,
        extra: `accept ${Math.round(summary.http_accept)}/s, lost ${summary.lost}/${summary.dlr_lost}, noise ${summary.noise_pct} %`,
      });
    });
  });
}

const theirName = args.kannel ? "kannel" : args.engines ? "sqlite" : args.against!;
const theirs = args.kannel
  ? kannel
  : args.engines
    ? () => ours(process.cwd(), benchArgs)
    : () => ours(resolve(args.against!), benchArgs);
const pairs: { ours: Side; theirs: Side }[] = [];
for (let i = 0; i < Number(args.pairs); i++) {
  const pair =
    i % 2 === 0 ? { ours: await ours(), theirs: await theirs() } : { theirs: await theirs(), ours: await ours() };
  pairs.push(pair);
  console.log(
    `pair ${i + 1} (${i % 2 === 0 ? "ours first" : `${theirName} first`}): ` +
      `ours e2e ${pair.ours.e2e}/s, ${pair.ours.cpu} µs/msg (${pair.ours.extra}); ` +
      `${theirName} e2e ${pair.theirs.e2e}/s, ${pair.theirs.cpu} µs/msg (${pair.theirs.extra}); ` +
      `ratio e2e ${(pair.ours.e2e / pair.theirs.e2e).toFixed(2)}, CPU ${(pair.ours.cpu / pair.theirs.cpu).toFixed(2)}`,
  );
}
const med = (pick: (pair: { ours: Side; theirs: Side }) => number) => median(pairs.map(pick));
console.log(
  `\n| median of ${pairs.length} pairs | ours | ${theirName} | ours / theirs (median of the pairs' ratios) |\n|---|---|---|---|\n` +
    `| e2e per s | ${med((p) => p.ours.e2e)} | ${med((p) => p.theirs.e2e)} | ${med((p) => p.ours.e2e / p.theirs.e2e).toFixed(2)} |\n` +
    `| gateway CPU µs per message | ${med((p) => p.ours.cpu)} | ${med((p) => p.theirs.cpu)} | ${med((p) => p.ours.cpu / p.theirs.cpu).toFixed(2)} |`,
);
