import { type ChildProcess, spawn } from "node:child_process";

/** Asks each child to stop (SIGTERM) and resolves once all have exited. */
export async function stopChildren(children: ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((exited) => {
          if (child.exitCode !== null || child.signalCode !== null) return exited();
          child.once("exit", () => exited());
          child.kill("SIGTERM");
        }),
    ),
  );
}

/**
 * Runs an entry point (scripts/run.mjs <entry> <args>) to its end: its exit code and its output,
 * stdout and stderr together. The child is added to `started`, for the caller's clean-up.
 */
export function runToEnd(
  entry: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  started: ChildProcess[],
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ["scripts/run.mjs", entry, ...args], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.push(child);
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  return new Promise((done) => child.once("exit", (code) => done({ code, output })));
}

/** Starts a worker process (worker/index.ts) with `env`, its output on the test's. */
export function startWorkerProcess(env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, ["scripts/run.mjs", "worker/index.ts"], { env, stdio: "inherit" });
}
