// The app's real entry points as child processes, with their output in log files, so the fault run
// can kill them (SIGKILL, as a crash or the OOM killer would) and tell a kill from a crash.
import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import { appNodeFlags } from "../../scripts/node-flags.ts";

export class AppProcess {
  readonly name: string;
  readonly logFile: string;
  readonly child: ChildProcess;
  /** Set when we killed it on purpose; any other exit before stop() is a crash. */
  killed = false;
  stopping = false;
  exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  readonly exited: Promise<void>;

  constructor(name: string, entry: string, env: NodeJS.ProcessEnv, logFile: string, onCrash: (p: AppProcess) => void) {
    this.name = name;
    this.logFile = logFile;
    const fd = openSync(logFile, "a");
    this.child = spawn(process.execPath, [...appNodeFlags(), "scripts/run.mjs", entry], {
      env,
      stdio: ["ignore", fd, fd],
    });
    closeSync(fd);
    this.exited = new Promise((resolve) => {
      this.child.once("exit", (code, signal) => {
        this.exit = { code, signal };
        if (!this.killed && !this.stopping) onCrash(this);
        resolve();
      });
    });
  }

  get running(): boolean {
    return this.exit === null;
  }

  async kill(): Promise<void> {
    this.killed = true;
    this.child.kill("SIGKILL");
    await this.exited;
  }

  /** SIGTERM (the process finishes in-flight work), SIGKILL after `graceMs`. */
  async stop(graceMs = 20_000): Promise<void> {
    if (!this.running) return;
    this.stopping = true;
    this.child.kill("SIGTERM");
    const timer = setTimeout(() => this.child.kill("SIGKILL"), graceMs);
    await this.exited;
    clearTimeout(timer);
  }

  tail(lines = 30): string {
    try {
      return readFileSync(this.logFile, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
    } catch {
      return "(no log)";
    }
  }
}
