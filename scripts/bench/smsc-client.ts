// The bench's side of a loopback SMSC process (scripts/bench/smsc-process.ts): its URL, its
// counters, the texts it kept, and stopping it for good mid-run (the failover phase).
import { type ChildProcess, fork } from "node:child_process";
import { resolve } from "node:path";

export type SmscStats = {
  counters: {
    accepted: number;
    duplicates: number;
    receiptsSent: number;
    receiptsAcked: number;
    inboundSent: number;
    inboundAcked: number;
    inboundRefused: number;
  };
  bound: number;
};

export type BenchSmsc = {
  process: ChildProcess;
  url: string;
  stats(): Promise<SmscStats>;
  /** The accepted submits' texts starting with BENCH_KEEP_TEXTS, one per accepted submit. */
  texts(): Promise<string[]>;
  /** Cuts every connection and stops listening, without answering what is in flight. */
  kill(): Promise<void>;
  stop(): void;
};

/** The next IPC message of `type` from `child`, after sending it `ask` when given. */
export function nextMessage<Message>(child: ChildProcess, type: string, ask?: { type: string }): Promise<Message> {
  return new Promise((done) => {
    const listener = (message: { type: string }) => {
      if (message.type !== type) return;
      child.off("message", listener);
      done(message as Message);
    };
    child.on("message", listener);
    if (ask) child.send(ask);
  });
}

/** Forks an SMSC process with `env` (BENCH_INBOUND_EVERY, BENCH_KEEP_TEXTS) and waits until it listens. */
export async function forkSmsc(env: NodeJS.ProcessEnv, children: ChildProcess[]): Promise<BenchSmsc> {
  const child = fork(resolve("scripts/bench/smsc-process.ts"), [], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    env,
  });
  children.push(child);
  const reply = <Message>(type: string, ask?: { type: string }) => nextMessage<Message>(child, type, ask);
  const { url } = await reply<{ url: string }>("ready");
  return {
    process: child,
    url,
    stats: () => reply<SmscStats>("stats", { type: "stats" }),
    texts: () => reply<{ texts: string[] }>("texts", { type: "texts" }).then((m) => m.texts),
    kill: () => reply("killed", { type: "kill" }).then(() => undefined),
    stop: () => child.send({ type: "stop" }),
  };
}
