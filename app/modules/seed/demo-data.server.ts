// The demo customer's and admin's data, so a newcomer signing in sees a gateway in use: contacts in
// groups, a history with every delivery outcome, a finished campaign, a scheduled message, orders, an API key and a
// support request. Written on an empty database only (seedDatabase), and consistent with the
// ledger: every message that cost credits has its debit, every failure before the carrier its refund.
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { sqlText, statements } from "#app/db/statements.server.ts";
import { withTx, type Tx } from "#app/db/client.server.ts";
import { orderLines, orders, offlineCharges } from "#app/db/schema/shop.ts";
import { supportRequests } from "#app/db/schema/support.ts";
import { storeNewApiKey } from "#app/modules/api-keys/keys.server.ts";
import { createContact } from "#app/modules/contacts/contacts.server.ts";
import { createGroup } from "#app/modules/contacts/groups.server.ts";
import { bookEntries, bookEntry } from "#app/modules/credits/ledger.server.ts";
import { createSchedule } from "#app/modules/scheduling/schedules.server.ts";
import type { OrderStatus } from "#app/modules/shop/orders.ts";
import { isFinal, type MessageStatus, rollupOutcome } from "#app/modules/messaging/message-status.ts";
import { addToRollup } from "#app/db/rollup-counts.server.ts";
import { INTERRUPTED_REASON } from "#app/modules/sms/reconcile.server.ts";
import { countSegments } from "#app/modules/messaging/segments.ts";
import { SIMULATOR_NUMBERS } from "#app/modules/sms/transports/simulator.server.ts";
import { clock } from "#app/utils/clock.server.ts";

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

type DemoUser = { id: number; email: string; fullName: string };
type DemoPackage = { id: number; name: string; credits: number; priceCents: number };

const CONTACTS = [
  { name: "Alice Martin", phone: "+12025550111", email: "alice@example.com", groups: ["Customers"] },
  { name: "Bob Chen", phone: "+12025550112", email: "bob@example.com", groups: ["Customers", "Staff"] },
  { name: "Carla Diaz", phone: "+12025550113", email: "carla@example.com", groups: ["Customers"] },
  { name: "David Okafor", phone: "+12025550114", email: "david@example.com", groups: ["Staff"] },
  { name: "Emma Novak", phone: "+12025550115", email: "emma@example.com", groups: ["Staff"] },
];

const GROUPS = [
  { name: "Customers", description: "People who asked for appointment reminders" },
  { name: "Staff", description: "The team, for shift changes" },
];

/**
 * One message per outcome the history shows, oldest first. `accepted`: the carrier took its parts
 * (a receipt then settled them); a message failed before the carrier is refunded in full; one whose
 * submit was interrupted is Unknown and keeps its debit, as the reconciler leaves it.
 */
const MESSAGES: {
  to: string;
  body: string;
  status: MessageStatus;
  error: string | null;
  hoursAgo: number;
  accepted: boolean;
}[] = [
  {
    to: "+12025550111",
    body: "Hi Alice, your appointment is on Tuesday at 10:30. Reply STOP to opt out.",
    status: "delivered",
    error: null,
    hoursAgo: 70,
    accepted: true,
  },
  {
    to: "+12025550112",
    body: "Shift change: Bob, you are on the early shift tomorrow.",
    status: "delivered",
    error: null,
    hoursAgo: 50,
    accepted: true,
  },
  {
    to: SIMULATOR_NUMBERS.undelivered,
    body: "Your order is ready for pickup.",
    status: "undelivered",
    error: "Carrier error 001",
    hoursAgo: 30,
    accepted: true,
  },
  {
    to: "+12025550113",
    body: "Carla, we have not heard from you: is Friday still fine?",
    status: "expired",
    error: "Carrier error 027",
    hoursAgo: 26,
    accepted: true,
  },
  {
    to: "+12025550116",
    body: "Welcome to our text updates!",
    status: "rejected",
    error: "Carrier error 011",
    hoursAgo: 20,
    accepted: true,
  },
  {
    to: SIMULATOR_NUMBERS.rejected,
    body: "Reminder: your subscription renews next week.",
    status: "failed",
    error: "Rejected by the carrier (simulated): invalid destination",
    hoursAgo: 8,
    accepted: false,
  },
  {
    to: "+12025550114",
    body: "David, the team meeting moved to 3 pm.",
    status: "unknown",
    error: INTERRUPTED_REASON,
    hoursAgo: 5,
    accepted: false,
  },
  {
    to: SIMULATOR_NUMBERS.noReceipt,
    body: "Thanks for your visit today!",
    status: "submitted",
    error: null,
    hoursAgo: 2,
    accepted: true,
  },
  {
    to: "+12025550115",
    body: "Emma, your new schedule is in the staff room.",
    status: "delivered",
    error: null,
    hoursAgo: 1,
    accepted: true,
  },
];

type DemoMessage = (typeof MESSAGES)[number];

/** A finished group send to the Customers group, so the campaigns page and the dashboard have one. */
const CAMPAIGN = {
  body: "Spring offer: 10% off every appointment booked this week. Reply STOP to opt out.",
  hoursAgo: 40,
  messages: [
    { to: "+12025550111", status: "delivered", error: null },
    { to: "+12025550112", status: "delivered", error: null },
    { to: "+12025550113", status: "undelivered", error: "Carrier error 001" },
  ] satisfies { to: string; status: MessageStatus; error: string | null }[],
};

const queries = statements({
  insertMessage: sqlText<
    [
      userId: number,
      to: string,
      body: string,
      encoding: string,
      segments: number,
      credits: number,
      status: MessageStatus,
      error: string | null,
      source: string,
      groupSendId: number | null,
      createdAt: number,
      updatedAt: number,
      submittedAt: number | null,
      doneAt: number | null,
    ],
    { id: number }
  >(
    `insert into sms_messages (user_id, to_phone, body, encoding, segments, credits, status, error, source, group_send_id, attempts, created_at, updated_at, submitted_at, done_at)
   values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?) returning id`,
  ),
  insertPart: sqlText<[number, number, string, MessageStatus, string | null, number]>(
    "insert into sms_message_parts (message_id, part, provider_id, status, error, updated_at) values (?, ?, ?, ?, ?, ?)",
  ),
  insertGroupSend: sqlText<
    [
      userId: number,
      groupId: number,
      groupName: string,
      body: string,
      segments: number,
      total: number,
      cursor: number,
      queued: number,
      credits: number,
      createdAt: number,
      updatedAt: number,
      finishedAt: number,
      completedAt: number,
    ],
    { id: number }
  >(
    `insert into group_sends (user_id, group_id, group_name, body, segments, status, total, cursor, queued, credits, created_at, updated_at, finished_at, completed_at)
   values (?, ?, ?, ?, ?, 'done', ?, ?, ?, ?, ?, ?, ?, ?) returning id`,
  ),
});

/** One message with its debit (and refund when it failed before the carrier) and its parts. */
async function insertDemoMessage(
  tx: Tx,
  userId: number,
  m: DemoMessage,
  now: number,
  groupSendId: number | null,
): Promise<void> {
  const count = countSegments(m.body);
  const sentAt = now - m.hoursAgo * HOUR;
  const doneAt = isFinal(m.status) ? sentAt + 5_000 : null;
  const { id } = (await queries.insertMessage.get(
    userId,
    m.to,
    m.body,
    count.encoding,
    count.segments,
    count.credits,
    m.status,
    m.error,
    groupSendId === null ? "web" : "group",
    groupSendId,
    sentAt,
    doneAt ?? sentAt,
    m.accepted ? sentAt + 1_000 : null,
    doneAt,
  ))!;
  await addToRollup([{ userId, at: sentAt, [rollupOutcome(m.status)]: 1 }]);
  const entries: Parameters<typeof bookEntries>[2] = [
    { kind: "debit", amount: -count.credits, key: `msg:${id}:debit` },
  ];
  if (m.status === "failed")
    entries.push({ kind: "refund", amount: count.credits, key: `msg:${id}:refund`, note: m.error ?? undefined });
  await bookEntries(tx, userId, entries);
  if (!m.accepted) return;
  const partError = m.error?.replace("Carrier error ", "") ?? null;
  for (let part = 1; part <= count.segments; part++)
    await queries.insertPart.run(id, part, `sim-${randomUUID()}`, m.status, partError, doneAt ?? sentAt);
}

async function seedMessages(userId: number, customersGroupId: number, now: number): Promise<void> {
  await withTx(async (tx) => {
    const count = countSegments(CAMPAIGN.body);
    const sentAt = now - CAMPAIGN.hoursAgo * HOUR;
    const total = CAMPAIGN.messages.length;
    const { id: groupSendId } = (await queries.insertGroupSend.get(
      userId,
      customersGroupId,
      "Customers",
      CAMPAIGN.body,
      count.segments,
      total,
      0,
      total,
      total * count.credits,
      sentAt,
      sentAt + 5_000,
      sentAt + 1_000,
      sentAt + 5_000,
    ))!;
    const campaign = CAMPAIGN.messages.map((m) => ({
      message: { ...m, body: CAMPAIGN.body, hoursAgo: CAMPAIGN.hoursAgo, accepted: true },
      groupSendId,
    }));
    // Oldest first, as they would have been written: the history pages by id.
    const all = [...MESSAGES.map((message) => ({ message, groupSendId: null })), ...campaign].sort(
      (a, b) => b.message.hoursAgo - a.message.hoursAgo,
    );
    for (const { message, groupSendId } of all) await insertDemoMessage(tx, userId, message, now, groupSendId);
  });
}

/** An order as the shop and the offline processor would have left it; a paid one with its charge and its credits. */
async function seedOrder(user: DemoUser, pack: DemoPackage, status: OrderStatus, placedAt: number): Promise<void> {
  await withTx(async (tx) => {
    const paid = status !== "Pending" && status !== "Cancelled";
    const order = await tx
      .insert(orders)
      .values({
        userId: user.id,
        pickupName: user.fullName,
        pickupEmail: user.email,
        pickupPhone: "+12025550100",
        totalCents: pack.priceCents,
        totalItems: 1,
        totalCredits: pack.credits,
        status,
        createdAt: new Date(placedAt),
        cancelledAt: status === "Cancelled" ? new Date(placedAt + HOUR) : null,
      })
      .returning({ id: orders.id })
      .get();
    await tx
      .insert(orderLines)
      .values({
        orderId: order.id,
        packageId: pack.id,
        itemName: pack.name,
        priceCents: pack.priceCents,
        credits: pack.credits,
        quantity: 1,
      })
      .run();
    if (!paid) return;
    const chargeId = `offch_${randomUUID().replaceAll("-", "")}`;
    await tx
      .insert(offlineCharges)
      .values({
        id: chargeId,
        orderId: order.id,
        amountCents: pack.priceCents,
        currency: "usd",
        status: "succeeded",
        createdAt: new Date(placedAt + 60_000),
      })
      .run();
    await tx
      .update(orders)
      .set({ paymentId: chargeId, paymentProvider: "offline", confirmedAt: new Date(placedAt + 60_000) })
      .where(eq(orders.id, order.id))
      .run();
    await bookEntry(tx, {
      userId: user.id,
      kind: "grant",
      amount: pack.credits,
      key: `payment:${chargeId}`,
      note: `Order ${order.id}`,
    });
  });
}

/** The demo customer's and admin's data; `packages` is the seeded ladder, cheapest first. */
export async function seedDemoData(customer: DemoUser, packages: DemoPackage[]): Promise<void> {
  const now = clock.now();
  const groups = new Map<string, number>();
  for (const g of GROUPS) groups.set(g.name, (await createGroup(customer.id, g)).id);
  for (const c of CONTACTS) {
    await createContact(customer.id, {
      name: c.name,
      phone: c.phone,
      email: c.email,
      groupIds: c.groups.map((name) => groups.get(name)!),
    });
  }

  const [small, medium, large] = packages;
  await seedOrder(customer, medium, "Completed", now - 6 * DAY);
  await seedOrder(customer, small, "Confirmed", now - 3 * DAY);
  await seedOrder(customer, small, "Cancelled", now - 2 * DAY);
  await seedOrder(customer, large, "Pending", now - 4 * HOUR);

  await seedMessages(customer.id, groups.get("Customers")!, now);
  await storeNewApiKey(customer.id);

  // Every Monday at 09:00 UTC, to the Staff group: its job scheduler is armed now, or by the
  // schedule reconciler when the worker starts if Redis is not there yet.
  const monday = new Date(now);
  monday.setUTCHours(9, 0, 0, 0);
  monday.setUTCDate(monday.getUTCDate() + ((8 - monday.getUTCDay()) % 7 || 7));
  await createSchedule(customer.id, {
    target: { kind: "group", groupId: groups.get("Staff")! },
    body: "Good morning team! This week's shifts are on the board.",
    repeat: "weekly",
    timeZone: "UTC",
    firstSendAt: monday.getTime(),
    endDate: null,
  });

  await withTx((tx) =>
    tx
      .insert(supportRequests)
      .values({
        source: "support",
        userId: customer.id,
        name: customer.fullName,
        email: customer.email,
        subject: "Sender name for our messages",
        message: "Hello, can our messages show our shop's name instead of a number? Thanks, the demo customer.",
        ip: "127.0.0.1",
        mailStatus: "not_configured",
        createdAt: new Date(now - 20 * HOUR),
      })
      .run(),
  );
}
