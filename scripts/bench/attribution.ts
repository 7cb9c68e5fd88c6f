// npm run bench -- --attribution [--rounds 3] [other bench options]: what each optional feature
// costs. Runs the bench's API phase and group send (no webhook phases, no pages) with every feature
// in use, and once with each feature off (features.ts), `rounds` times; each round runs the
// variants in another order (rotated), so the machine's drift falls on all of them alike. Prints
// each run's CPU per message and a table of the medians against "all on".
import { spawn } from "node:child_process";
import { FEATURES, type Feature, OFF_MEANS } from "./features.ts";

type Cpu = { web: number; worker: number; redis: number; gateway: number; load: number };
type Run = { cpu_us_per_msg: Cpu; cpu_us_per_msg_group: Cpu; e2e_per_s: number; group_10k_s: number };
const ALL_ON = "all on";
type Variant = Feature | typeof ALL_ON;

/** One bench run in a child process; its final JSON line. */
export function benchRun(args: string[], cwd = process.cwd()): Promise<Record<string, unknown>> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [...process.execArgv, "scripts/run.mjs", "scripts/bench/run.ts", ...args], {
      cwd,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.on("exit", (code) => {
      const last = out.trim().split("\n").at(-1) ?? "";
      if (code === 0 && last.startsWith("{")) done(JSON.parse(last) as Record<string, unknown>);
      else fail(new Error(`bench run (${args.join(" ")}) in ${cwd} exited ${code}`));
    });
  });
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** The bench's arguments without the ones that start this mode. */
function passedOn(argv: string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--attribution" || argv[i].startsWith("--rounds=")) continue;
    if (argv[i] === "--rounds") i++;
    else kept.push(argv[i]);
  }
  return kept;
}

export async function runAttribution(argv: string[], rounds: number): Promise<void> {
  const variants: Variant[] = [ALL_ON, ...FEATURES];
  const runs = new Map<Variant, Run[]>(variants.map((v) => [v, []]));
  const base = [...passedOn(argv), "--skip-pages", "--skip-webhooks", "--all-features"];
  for (let round = 0; round < rounds; round++) {
    const order = variants.map((_, i) => variants[(i + round) % variants.length]);
    for (const variant of order) {
      const args = variant === ALL_ON ? base : [...base, "--feature-off", variant];
      const run = (await benchRun(args)) as unknown as Run;
      runs.get(variant)!.push(run);
      console.log(
        `round ${round + 1}, ${variant === ALL_ON ? ALL_ON : `${variant} off`}: gateway ${run.cpu_us_per_msg.gateway} µs/msg ` +
          `(web ${run.cpu_us_per_msg.web}, worker ${run.cpu_us_per_msg.worker}, Redis ${run.cpu_us_per_msg.redis}; ` +
          `load generator ${run.cpu_us_per_msg.load}), ` +
          `group ${run.cpu_us_per_msg_group.gateway} µs/msg, e2e ${run.e2e_per_s}/s, group ${run.group_10k_s} s`,
      );
    }
  }
  const of = (variant: Variant, pick: (run: Run) => number) => median(runs.get(variant)!.map(pick));
  const api = (run: Run) => run.cpu_us_per_msg.gateway;
  const group = (run: Run) => run.cpu_us_per_msg_group.gateway;
  // The load generator does the same work a message in every variant: the gateway's CPU in units of
  // its CPU takes out most of the machine's drift (the same build's gateway ran 160-280 µs a message
  // within an hour, the load generator's moving with it; benchmark log, 2026-12-07).
  const perLoad = (run: Run) => run.cpu_us_per_msg.gateway / run.cpu_us_per_msg.load;
  console.log(
    `\nGateway CPU µs per message (web + worker + Redis), median of ${rounds} round(s); "saves" = all on minus off;\n` +
      "÷ load: the gateway's CPU over the load generator's in the same run (its saving in % of all on)\n" +
      "| feature off | what off means | API phase | saves | ÷ load | saves | web / worker / Redis | group send | saves |\n" +
      "|---|---|---|---|---|---|---|---|---|",
  );
  for (const variant of variants) {
    const cpu = (key: keyof Cpu) => of(variant, (run) => run.cpu_us_per_msg[key]);
    const saves = (pick: (run: Run) => number) =>
      variant === ALL_ON ? "" : String(Math.round(of(ALL_ON, pick) - of(variant, pick)));
    const savesPercent =
      variant === ALL_ON
        ? ""
        : `${Math.round((100 * (of(ALL_ON, perLoad) - of(variant, perLoad))) / of(ALL_ON, perLoad))} %`;
    console.log(
      `| ${variant === ALL_ON ? "(none: all on)" : variant} | ${variant === ALL_ON ? "" : OFF_MEANS[variant]} | ` +
        `${of(variant, api)} | ${saves(api)} | ${of(variant, perLoad).toFixed(2)} | ${savesPercent} | ` +
        `${cpu("web")} / ${cpu("worker")} / ${cpu("redis")} | ${of(variant, group)} | ${saves(group)} |`,
    );
  }
}
