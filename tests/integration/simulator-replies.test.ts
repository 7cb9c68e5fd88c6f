// The simulator's phones answer a message that asks for a reply, after its receipt, through the
// inbound path: the demo shows the whole loop (send, delivered, an answer in the inbox).
import { afterAll, beforeAll, expect, it } from "vitest";
import { applyReceipts } from "#app/modules/sms/dispatch.server.ts";
import { receiveInbound } from "#app/modules/inbound/receive.server.ts";
import { listConversations } from "#app/modules/inbound/inbox.server.ts";
import { queueMessage } from "#app/modules/sms/send.server.ts";
import { SimulatorTransport, simulatedReplyText } from "#app/modules/sms/transports/simulator.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { createSmsSendJob } from "#worker/jobs/sms-send.ts";
import { type RunningWorkers, startWorkers } from "#worker/workers.ts";
import { inboundFrom, newPhone } from "#tests/support/inbound.ts";
import { createTestUser } from "#tests/support/requests.ts";
import { grantCredits, waitForStatus } from "#tests/support/sms.ts";
import { waitFor } from "#tests/support/wait.ts";

let workers: RunningWorkers;

beforeAll(async () => {
  workers = await startWorkers([
    createSmsSendJob(
      () =>
        new SimulatorTransport({
          dlrMs: 5,
          onReceipts: applyReceipts,
          onInbound: receiveInbound,
          replyFrom: getEnv().SMPP_SOURCE_ADDR,
        }),
    ),
  ]);
});

afterAll(async () => {
  await workers?.close();
});

it("a message with the word reply gets an answer after its receipt, in the sender's inbox", async () => {
  const user = await createTestUser();
  await grantCredits(user.id, 5);
  const phone = newPhone();
  const body = "Can you come on Friday? Please reply";
  const { id } = await queueMessage(user.id, { to: phone, body });
  await waitForStatus(id, "delivered");
  const [answer] = await waitFor(
    async () => {
      const rows = await inboundFrom(phone);
      return rows.length > 0 ? rows : null;
    },
    { what: "the simulated answer" },
  );
  expect(answer).toMatchObject({
    userId: user.id,
    body: simulatedReplyText(body),
    toAddress: getEnv().SMPP_SOURCE_ADDR,
  });
  expect((await listConversations(user.id, 1)).conversations).toEqual([expect.objectContaining({ phone, unread: 1 })]);
});

it("a message without it gets none", async () => {
  const user = await createTestUser();
  await grantCredits(user.id, 5);
  const phone = newPhone();
  const { id } = await queueMessage(user.id, { to: phone, body: "Replying is not needed" });
  await waitForStatus(id, "delivered");
  const { id: second } = await queueMessage(user.id, { to: phone, body: "Please reply" });
  // The second one's answer comes after the first one's receipt: if the first had one, it would be there.
  await waitFor(async () => (await inboundFrom(phone)).length > 0, { what: "the second message's answer" });
  expect(await inboundFrom(phone)).toHaveLength(1);
  await waitForStatus(second, "delivered");
});
