import type { ChildProcess } from "node:child_process";

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
