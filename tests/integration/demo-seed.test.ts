// Full test mode (the simulator and the offline processor) with SEED_DEMO left at "auto": the demo
// accounts come with a living demo, once, consistent with the ledger.
import { describe, expect, it } from "vitest";

import { seedDatabase } from "#app/modules/seed/seed.server.ts";
import { getOwnApiKey } from "#app/modules/api-keys/keys.server.ts";
import { listCampaigns } from "#app/modules/campaigns/campaigns.server.ts";
import { DEMO_ACCOUNTS } from "#app/modules/auth/demo-accounts.server.ts";
import { findUserByEmail } from "#app/modules/auth/users.server.ts";
import { listContacts } from "#app/modules/contacts/contacts.server.ts";
import { listGroups } from "#app/modules/contacts/groups.server.ts";
import { getBalance, getLedgerSum } from "#app/modules/credits/ledger.server.ts";
import { isArmed } from "#app/modules/scheduling/job-schedulers.server.ts";
import { listSchedules } from "#app/modules/scheduling/schedules.server.ts";
import { loadUpstreamConfigs } from "#app/modules/routing/upstreams.server.ts";
import { getMessageHistory } from "#app/modules/sms/history.server.ts";
import { listSupportRequests } from "#app/modules/support/requests.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { sqlCount, sqlRows } from "#tests/support/database.ts";

// Read at the first getEnv(), after the imports (nothing reads the environment at import).
process.env.SEED_DEMO = "auto";

const first = await seedDatabase();
const customer = (await findUserByEmail(DEMO_ACCOUNTS.customer.email))!;

const count = sqlCount;

describe("the living demo (full test mode, SEED_DEMO=auto)", () => {
  it("is full test mode, and seeds both demo accounts", async () => {
    expect(getEnv().testMode).toMatchObject({
      sms: true,
      payments: true,
      active: true,
      demo: true,
      full: true,
    });
    expect(getEnv().seedDemo).toBe(true);
    expect(first.demoSeeded).toBe(true);
    expect((await findUserByEmail(DEMO_ACCOUNTS.admin.email))?.role).toBe("admin");
    expect(customer.role).toBe("customer");
  });

  it("gives the demo customer contacts in two groups", async () => {
    const contacts = await listContacts(customer.id, { page: 1 });
    expect(contacts.total).toBeGreaterThanOrEqual(4);
    const groups = (await listGroups(customer.id, { page: 1 })).groups;
    expect(groups).toHaveLength(2);
    for (const group of groups) expect(group.members).toBeGreaterThanOrEqual(2);
  });

  it("shows every delivery outcome in the history, each failure with its reason", async () => {
    const { messages } = await getMessageHistory(customer.id, 1);
    const statuses = new Set(messages.map((m) => m.status));
    for (const status of ["submitted", "delivered", "undelivered", "expired", "rejected", "failed", "unknown"])
      expect(statuses).toContain(status);
    for (const m of messages) {
      if (m.status === "delivered" || m.status === "submitted") expect(m.error).toBeNull();
      else expect(m.error, String(m.status)).toBeTruthy();
    }
  });

  it("keeps the ledger's invariants: cached balance = sum; one debit per message; a refund only for a message failed before the carrier", async () => {
    expect(await getBalance(customer.id)).toBe(await getLedgerSum(customer.id));
    expect(await getBalance(customer.id)).toBeGreaterThan(0);
    const messages = await sqlRows<{ id: number; status: string; credits: number }>(
      "select id, status, credits from sms_messages where user_id = ?",
      customer.id,
    );
    for (const m of messages) {
      expect(
        await count(
          "select count(*) as n from credit_ledger where key = ? and amount = ?",
          `msg:${m.id}:debit`,
          -m.credits,
        ),
      ).toBe(1);
      expect(
        await count(
          "select count(*) as n from credit_ledger where key = ? and amount = ?",
          `msg:${m.id}:refund`,
          m.credits,
        ),
      ).toBe(m.status === "failed" ? 1 : 0);
    }
    // Accepted messages have their parts, so a late receipt finds them; none waits in the outbox.
    expect(
      await count(
        "select count(*) as n from sms_messages m where user_id = ? and status in ('submitted','delivered','undelivered','expired','rejected') and not exists (select 1 from sms_message_parts p where p.message_id = m.id)",
        customer.id,
      ),
    ).toBe(0);
    expect(await count("select count(*) as n from sms_outbox")).toBe(0);
    // Every paid order's credits were granted once, under its payment.
    const paid = await sqlRows<{ paymentId: string; credits: number }>(
      "select payment_id as paymentId, total_credits as credits from orders where user_id = ? and status not in ('Pending','Cancelled')",
      customer.id,
    );
    expect(paid.length).toBeGreaterThanOrEqual(1);
    for (const order of paid)
      expect(
        await count(
          "select count(*) as n from credit_ledger where key = ? and amount = ?",
          `payment:${order.paymentId}`,
          order.credits,
        ),
      ).toBe(1);
  });

  it("has a scheduled message armed in BullMQ, a confirmed order, an API key, orders in several statuses and a support request", async () => {
    const { schedules } = await listSchedules(customer.id);
    expect(schedules).toHaveLength(1);
    expect(schedules[0].status).toBe("active");
    expect(await isArmed(schedules[0].id)).toBe(true);
    expect(
      await count("select count(*) as n from orders where user_id = ? and status = 'Confirmed'", customer.id),
    ).toBe(1);
    expect(await count("select count(distinct status) as n from orders")).toBeGreaterThanOrEqual(3);
    expect((await getOwnApiKey(customer.id))?.key).toBeTruthy();
    expect((await listSupportRequests({ filter: "open", page: 1 })).total).toBeGreaterThanOrEqual(1);
  });

  it("has a finished campaign to the Customers group, its messages in the history and its outcomes counted", async () => {
    const { campaigns } = await listCampaigns(customer.id, 1);
    expect(campaigns).toHaveLength(1);
    const [campaign] = campaigns;
    expect(campaign).toMatchObject({ groupName: "Customers", status: "done", total: 3, skipped: 0 });
    expect(campaign.counts).toMatchObject({ delivered: 2, failed: 1 });
    const history = await getMessageHistory(customer.id, 1, {}, { direction: "outbound", campaign: campaign.id });
    expect(history.total).toBe(3);
    expect(await count("select count(*) as n from group_sends where completed_at is null")).toBe(0);
  });

  it("offers two simulated upstreams for the failover demo, routing nothing through them until an admin adds a route", async () => {
    expect((await loadUpstreamConfigs()).map(({ name, kind, failing }) => ({ name, kind, failing }))).toEqual([
      { name: "Simulator A", kind: "simulator", failing: false },
      { name: "Simulator B", kind: "simulator", failing: false },
    ]);
    expect(await count("select count(*) as n from routes")).toBe(0);
  });

  it("is seeded once: a second start adds nothing", async () => {
    const tables = [
      "users",
      "contacts",
      "contact_groups",
      "sms_messages",
      "credit_ledger",
      "orders",
      "schedules",
      "api_keys",
      "support_requests",
      "packages",
      "upstreams",
    ];
    const before = await Promise.all(tables.map((t) => count(`select count(*) as n from ${t}`)));
    expect((await seedDatabase()).demoSeeded).toBe(false);
    expect(await Promise.all(tables.map((t) => count(`select count(*) as n from ${t}`)))).toEqual(before);
  });
});
