import { Queue, type QueueOptions } from "bullmq";
import { env } from "../utils/env.server.ts";
import { getRedis } from "./redis.server.ts";

/** Every queue of the product, by name. Workers and producers meet here. */
export const QUEUES = {
  housekeeping: "housekeeping",
  supportMail: "support-mail",
  smsSend: "sms-send",
  smsReconcile: "sms-reconcile",
  groupSend: "group-send",
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export const queueBaseOptions = (): Pick<QueueOptions, "prefix"> => ({ prefix: env.QUEUE_PREFIX });

const queues = new Map<QueueName, Queue>();

/** The producer side of a queue, sharing the process's command connection. */
export function getQueue(name: QueueName): Queue {
  let queue = queues.get(name);
  if (!queue) {
    queue = new Queue(name, { ...queueBaseOptions(), connection: getRedis() });
    queues.set(name, queue);
  }
  return queue;
}

export async function closeQueues(): Promise<void> {
  const open = [...queues.values()];
  queues.clear();
  await Promise.all(open.map((q) => q.close()));
}
