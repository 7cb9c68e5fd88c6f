// The Senders screens: a customer's request, the admin's decision with its reason, the default; the
// admin's senders and automatic replies; the customer's Opt-outs screen (by hand, by CSV, removal).
import { describe, expect, it } from "vitest";
import { getKeywordReplies, isOptedOut } from "#app/modules/opt-outs/opt-outs.server.ts";
import { sendingSenders } from "#app/modules/senders/senders.server.ts";
import { action as adminAction, loader as adminLoader } from "#app/routes/admin/senders.tsx";
import { action as optOutsAction, loader as optOutsLoader } from "#app/routes/sms/opt-outs.tsx";
import { action as sendersAction, loader as sendersLoader } from "#app/routes/sms/senders.tsx";
import { getEnv } from "#app/utils/env.server.ts";
import { call, createTestUser, dataOf, locationOf, makeRequest, statusOf } from "#tests/support/requests.ts";

type Reply = { error?: Record<string, string[] | null> };
type SendersData = {
  senders: { id: number; address: string; status: string; isDefault: boolean; rejectionReason: string | null }[];
};

const admin = await createTestUser("admin");

async function ownSenders(user: { cookie: string }) {
  return dataOf<SendersData>(await call(sendersLoader, makeRequest("/sms/senders", { user }))).senders;
}

describe("a customer's sender ID request", () => {
  it("is rejected with the admin's reason, shown to the customer; a second request is approved and becomes the default", async () => {
    const customer = await createTestUser();
    const bad = await call(
      sendersAction,
      makeRequest("/sms/senders", { user: customer, form: { intent: "request", address: "Way too long name" } }),
    );
    expect(statusOf(bad)).toBe(400);
    expect(dataOf<Reply>(bad).error?.address?.[0]).toMatch(/1 to 11/);

    const asked = await call(
      sendersAction,
      makeRequest("/sms/senders", { user: customer, form: { intent: "request", address: "FreeMoney" } }),
    );
    expect(locationOf(asked)).toBe("/sms/senders");
    const [request] = await ownSenders(customer);
    expect(request).toMatchObject({ address: "FreeMoney", status: "pending" });

    const noReason = await call(
      adminAction,
      makeRequest("/admin/senders", { user: admin, form: { intent: "reject", id: String(request.id), reason: " " } }),
    );
    expect(statusOf(noReason)).toBe(400);
    const rejected = await call(
      adminAction,
      makeRequest("/admin/senders", {
        user: admin,
        form: { intent: "reject", id: String(request.id), reason: "Misleading name" },
      }),
    );
    expect(locationOf(rejected)).toBe("/admin/senders");
    expect((await ownSenders(customer))[0]).toMatchObject({ status: "rejected", rejectionReason: "Misleading name" });
    expect(await sendingSenders(customer.id)).toEqual([]);

    await call(
      sendersAction,
      makeRequest("/sms/senders", { user: customer, form: { intent: "request", address: "CafeLuna" } }),
    );
    const pending = (await ownSenders(customer)).find((s) => s.address === "CafeLuna")!;
    await call(
      adminAction,
      makeRequest("/admin/senders", { user: admin, form: { intent: "approve", id: String(pending.id) } }),
    );
    expect(await sendingSenders(customer.id)).toEqual([{ address: "CafeLuna", isDefault: true }]);
  });

  it("refuses the gateway's shared sender (any letter case) beside the field, for the customer and the admin", async () => {
    const customer = await createTestUser();
    const shared = getEnv().SMPP_SOURCE_ADDR;
    const asked = await call(
      sendersAction,
      makeRequest("/sms/senders", { user: customer, form: { intent: "request", address: shared.toLowerCase() } }),
    );
    expect(statusOf(asked)).toBe(400);
    expect(dataOf<Reply>(asked).error?.address?.[0]).toMatch(/shared sender/);
    expect(await ownSenders(customer)).toEqual([]);

    const form = {
      intent: "create",
      kind: "alphanumeric",
      address: shared,
      ton: "5",
      npi: "0",
      account: customer.email,
    };
    const created = await call(adminAction, makeRequest("/admin/senders", { user: admin, form }));
    expect(statusOf(created)).toBe(400);
    expect(dataOf<{ result: Reply }>(created).result.error?.address?.[0]).toMatch(/shared sender/);
    expect(await sendingSenders(customer.id)).toEqual([]);
  });
});

describe("the admin's senders", () => {
  it("refuses a bad address or an unknown account beside the field, then creates, assigns and the customer picks a default", async () => {
    const customer = await createTestUser();
    const form = {
      intent: "create",
      kind: "long_number",
      address: "07700900123",
      ton: "1",
      npi: "1",
      account: customer.email,
    };
    const bad = await call(adminAction, makeRequest("/admin/senders", { user: admin, form }));
    expect(statusOf(bad)).toBe(400);
    expect(dataOf<{ result: Reply }>(bad).result.error?.address?.[0]).toMatch(/international format/);
    const nobody = await call(
      adminAction,
      makeRequest("/admin/senders", {
        user: admin,
        form: { ...form, address: "+447700900501", account: "nobody@example.com" },
      }),
    );
    expect(dataOf<{ result: Reply }>(nobody).result.error?.account?.[0]).toMatch(/No account/);

    await call(
      adminAction,
      makeRequest("/admin/senders", { user: admin, form: { ...form, address: "+447700900501" } }),
    );
    await call(
      adminAction,
      makeRequest("/admin/senders", {
        user: admin,
        form: { ...form, kind: "short_code", address: "60501", ton: "3", npi: "0" },
      }),
    );
    const taken = await call(
      adminAction,
      makeRequest("/admin/senders", { user: admin, form: { ...form, address: "+447700900501" } }),
    );
    expect(dataOf<{ result: Reply }>(taken).result.error?.address?.[0]).toMatch(/already exists/);

    const senders = await ownSenders(customer);
    expect(senders.map((s) => [s.address, s.isDefault])).toEqual([
      ["+447700900501", true],
      ["60501", false],
    ]);
    const shortCode = senders[1];
    await call(
      sendersAction,
      makeRequest("/sms/senders", { user: customer, form: { intent: "default", id: String(shortCode.id) } }),
    );
    expect((await sendingSenders(customer.id))[0]).toEqual({ address: "60501", isDefault: true });
    // Its edit form is reachable by URL; an unknown id is a 404.
    expect(statusOf(await call(adminLoader, makeRequest(`/admin/senders?edit=${shortCode.id}`, { user: admin })))).toBe(
      200,
    );
    expect(statusOf(await call(adminLoader, makeRequest("/admin/senders?edit=999999", { user: admin })))).toBe(404);
  });

  it("words the automatic replies, refusing an empty one", async () => {
    const form = { intent: "replies", stop: "Bye. START to return.", start: "Welcome back.", help: "" };
    const bad = await call(adminAction, makeRequest("/admin/senders", { user: admin, form }));
    expect(dataOf<{ result: Reply }>(bad).result.error?.help?.[0]).toBe("The reply is required");
    await call(adminAction, makeRequest("/admin/senders", { user: admin, form: { ...form, help: "Call us." } }));
    expect(await getKeywordReplies()).toEqual({
      stop: "Bye. START to return.",
      start: "Welcome back.",
      help: "Call us.",
    });
  });
});

describe("the Opt-outs screen", () => {
  it("adds a number by hand (a mistake first) and by CSV, lists them, and removes one", async () => {
    const customer = await createTestUser();
    const post = (form: Record<string, string | Blob>) =>
      call(optOutsAction, makeRequest("/sms/optOuts", { user: customer, form }));
    const bad = await post({ intent: "add", phoneNumber: "12" });
    expect(statusOf(bad)).toBe(400);
    expect(dataOf<Reply>(bad).error?.phoneNumber?.[0]).toMatch(/not a valid phone number/);
    expect(locationOf(await post({ intent: "add", phoneNumber: "+1 202 555 0501" }))).toBe("/sms/optOuts");
    const csv = new File(["phone\n+12025550502\nnot a number\n+12025550503,Bob\n"], "stop.csv", { type: "text/csv" });
    expect(locationOf(await post({ intent: "import", file: csv }))).toBe("/sms/optOuts");
    expect(await isOptedOut(customer.id, "+12025550503")).toBe(true);

    const list = dataOf<{ items: { id: number; phone: string; source: string }[]; total: number }>(
      await call(optOutsLoader, makeRequest("/sms/optOuts", { user: customer })),
    );
    expect(list.total).toBe(3);
    expect(list.items.map((o) => o.source).sort()).toEqual(["csv", "csv", "manual"]);
    const manual = list.items.find((o) => o.source === "manual")!;
    expect(locationOf(await post({ intent: "remove", id: String(manual.id) }))).toBe("/sms/optOuts");
    expect(await isOptedOut(customer.id, "+12025550501")).toBe(false);
  });
});
