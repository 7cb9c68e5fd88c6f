// CPU a process has used, read from Linux's /proc, for the benchmarks' per-message figures.
import { readFileSync } from "node:fs";

const CLOCK_TICKS = 100;

/** CPU seconds process `pid` has used so far, user and system, all its threads. */
export function cpuSeconds(pid: number | undefined): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}
