import { spawn } from "node:child_process";
import { Redis } from "ioredis";
import { freePort } from "#server/free-port.ts";

/** A throwaway redis-server on a free loopback port, without persistence. */
export async function startTestRedis(dir: string, port?: number) {
  const listenPort = port ?? (await freePort());
  const child = spawn(
    "redis-server",
    [
      "--port",
      String(listenPort),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--dir",
      dir,
      "--maxmemory-policy",
      "noeviction",
    ],
    { stdio: "ignore" },
  );
  const url = `redis://127.0.0.1:${listenPort}`;
  for (let attempt = 0; ; attempt++) {
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on("error", () => {});
    try {
      await client.connect();
      await client.ping();
      client.disconnect();
      break;
    } catch {
      client.disconnect();
      if (attempt > 100) throw new Error("test redis-server did not start (is redis-server installed?)");
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    url,
    port: listenPort,
    /** Freezes the server with its sockets open (SIGSTOP), like a hung or swapping Redis; resume() thaws it. */
    pause: () => child.kill("SIGSTOP"),
    resume: () => child.kill("SIGCONT"),
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
