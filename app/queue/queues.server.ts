import { Queue, type QueueOptions } from "bullmq";
import { getEnv } from "#app/utils/env.server.ts";
import { log } from "#app/utils/log.server.ts";
import { getRedis, redisForRequest } from "#app/queue/redis.server.ts";

/** A queue's name; each is declared by its job file in app/queue/jobs/, with the job's payload and options. */
export type QueueName = string;

export const queueBaseOptions = (): Pick<QueueOptions, "prefix"> => ({ prefix: getEnv().QUEUE_PREFIX });

const queues = new Map<QueueName, Queue>();

/**
 * The producer side of a queue, sharing the process's command connection. A queue with a custom
 * repeat strategy is reached through its owner's accessor, which passes `settings` every time.
 */
export function getQueue(name: QueueName, settings?: QueueOptions["settings"]): Queue {
  let queue = queues.get(name);
  if (!queue) {
    queue = new Queue(name, { ...queueBaseOptions(), connection: getRedis(), settings });
    // Without a listener BullMQ prints every error of the connection, once per queue and retry;
    // the connection reports an outage itself (getRedis), so only other errors are logged here.
    queue.on("error", (error) => {
      if (getRedis().status === "ready") log("error", "queue", `${name}: ${error.message}`);
    });
    queues.set(name, queue);
  }
  return queue;
}

/**
 * getQueue for a producer whose caller keeps the work in SQLite when Redis is down (a reconciler
 * adds the job later): while the connection is down it throws RedisUnavailableError at once
 * instead of leaving a person waiting on ioredis's retries (see redisForRequest).
 */
export function queueForRequest(name: QueueName, settings?: QueueOptions["settings"]): Queue {
  redisForRequest();
  return getQueue(name, settings);
}

export async function closeQueues(): Promise<void> {
  const open = [...queues.values()];
  queues.clear();
  await Promise.all(open.map((q) => q.close()));
}
