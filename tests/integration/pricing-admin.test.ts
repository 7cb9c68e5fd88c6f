// The Prices screen and the public price list through the real HTTP server: admins only; a bad
// prefix or price is a message next to its field (400) and changes nothing; a CSV with bad rows names
// each line and imports nothing; a good one imports in one go; customers see the list and price a number.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getBalance } from "#app/modules/credits/ledger.server.ts";
import { runGroupSend } from "#app/modules/group-sends/group-send.server.ts";
import { listPrices, savePrice } from "#app/modules/pricing/prices.server.ts";
import { startHttpServer, stopHttpServer } from "#server/http.ts";
import { sameOrigin } from "#server/same-origin.ts";
import { seedGroup } from "#tests/support/contacts.ts";
import { createTestUser, type TestUser } from "#tests/support/requests.ts";
import { grantCredits } from "#tests/support/sms.ts";

let server: Server;
let base: string;
let admin: TestUser;

beforeAll(async () => {
  process.env.PORT = "0";
  process.env.HOST = "127.0.0.1";
  process.env.LOG_LEVEL = "silent";
  server = await startHttpServer([sameOrigin]);
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  admin = await createTestUser("admin");
  // The development server compiles the routes on their first request: not part of any test's time.
  expect((await get("/admin/prices", admin)).status).toBe(200);
  expect((await get("/pricing/destinations")).status).toBe(200);
}, 120_000);

afterAll(async () => {
  if (server) await stopHttpServer(server, 1_000);
});

function get(path: string, user?: TestUser) {
  return fetch(`${base}${path}`, { headers: user ? { Cookie: user.cookie } : {}, redirect: "manual" });
}

function post(body: FormData, user: TestUser = admin) {
  return fetch(`${base}/admin/prices`, {
    method: "POST",
    headers: { Cookie: user.cookie, Origin: base },
    body,
    redirect: "manual",
  });
}

function form(fields: Record<string, string>) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  return body;
}

function csv(text: string, replace = false) {
  const body = form({ intent: "import", ...(replace ? { replace: "on" } : {}) });
  body.append("file", new Blob([text], { type: "text/csv" }), "prices.csv");
  return body;
}

describe("/admin/prices", () => {
  it("is for admins: a customer is sent to access denied, a visitor to the login", async () => {
    const customer = await createTestUser();
    const denied = await get("/admin/prices", customer);
    expect(denied.status).toBe(302);
    expect(denied.headers.get("location")).toBe("/accessDenied");
    expect((await get("/admin/prices")).headers.get("location")).toMatch(/^\/login\?redirectTo=/);
    const posted = await post(form({ intent: "save", prefix: "+44", creditsPerSegment: "9" }), customer);
    expect(posted.headers.get("location")).toBe("/accessDenied");
    expect(await listPrices()).toEqual([]);
  });

  it("adds, edits and deletes a prefix's price; bad input is a message next to its field and changes nothing", async () => {
    const empty = await (await get("/admin/prices", admin)).text();
    expect(empty).toContain("No prices yet: every destination costs 1 credit per segment.");

    const badPrefix = await post(form({ intent: "save", prefix: "+44x", creditsPerSegment: "3" }));
    expect(badPrefix.status).toBe(400);
    const badPrefixPage = await badPrefix.text();
    expect(badPrefixPage).toContain("A prefix is digits after an optional +, such as +44 7700, or *");
    expect(badPrefixPage.match(/<h1/g)).toHaveLength(1);
    const badCredits = await post(form({ intent: "save", prefix: "+44", creditsPerSegment: "0" }));
    expect(badCredits.status).toBe(400);
    expect(await badCredits.text()).toContain("Credits per segment is at least 1");
    expect(await listPrices()).toEqual([]);

    const added = await post(form({ intent: "save", prefix: "+44 7911", creditsPerSegment: "3" }));
    expect(added.status).toBe(302);
    expect(added.headers.get("location")).toBe("/admin/prices");
    expect(await listPrices()).toEqual([{ prefix: "447911", creditsPerSegment: 3 }]);

    const editPage = await (await get("/admin/prices?edit=447911", admin)).text();
    expect(editPage).toContain("Edit +447911");
    expect((await get("/admin/prices?edit=449999", admin)).status).toBe(404);
    await post(form({ intent: "save", prefix: "+447911", creditsPerSegment: "4" }));
    expect(await listPrices()).toEqual([{ prefix: "447911", creditsPerSegment: 4 }]);
    expect(await (await get("/admin/prices", admin)).text()).toContain("+447911");

    expect((await post(form({ intent: "delete", prefix: "447911" }))).status).toBe(302);
    expect(await listPrices()).toEqual([]);
    expect((await post(form({ intent: "delete", prefix: "447911" }))).status).toBe(404);
  });

  it("imports a CSV: bad rows by line and nothing imported, then a good file whole", async () => {
    await post(form({ intent: "save", prefix: "*", creditsPerSegment: "2" }));
    const bad = await post(csv("prefix,credits_per_segment\n+33,2\n+34,-1\n+35,1\nnope,2\n"));
    expect(bad.status).toBe(400);
    const page = await bad.text();
    expect(page).toContain("Nothing was imported: 2 lines to fix.");
    expect(page).toContain("Line 3: Credits per segment is at least 1");
    expect(page).toContain("Line 5: A prefix is digits after an optional +, such as +44 7700, or *");
    expect(await listPrices()).toEqual([{ prefix: "*", creditsPerSegment: 2 }]);

    const noFile = await post(form({ intent: "import" }));
    expect(noFile.status).toBe(400);
    expect(await noFile.text()).toContain("Choose a CSV file to import");

    const good = await post(csv("prefix,credits_per_segment\n+33,2\n+34 6,5\n"));
    expect(good.status).toBe(302);
    expect(await listPrices()).toEqual([
      { prefix: "*", creditsPerSegment: 2 },
      { prefix: "33", creditsPerSegment: 2 },
      { prefix: "346", creditsPerSegment: 5 },
    ]);
    // Replacing: the prefixes not in the file go.
    expect((await post(csv("prefix,credits_per_segment\n+44,3\n", true))).status).toBe(302);
    expect(await listPrices()).toEqual([{ prefix: "44", creditsPerSegment: 3 }]);
  });
});

describe("/pricing/destinations", () => {
  it("shows every visitor the list, and what a number costs", async () => {
    const page = await (await get("/pricing/destinations")).text();
    expect(page).toContain("Prices by destination");
    expect(page).toContain("+44");
    expect(page).toContain("All other destinations (*)");
    const priced = await (await get("/pricing/destinations?number=%2B447911123456")).text();
    expect(priced).toContain("A message to +447911123456 costs 3 credits per segment.");
    const unpriced = await (await get("/pricing/destinations?number=%2B12025550100")).text();
    expect(unpriced).toContain("A message to +12025550100 costs 1 credit per segment.");
    const wrong = await (await get("/pricing/destinations?number=abc")).text();
    expect(wrong).toContain("is not a valid phone number");
    // The pricing page links to it.
    expect(await (await get("/")).text()).toContain('href="/pricing/destinations"');
  });

  it("is shown on the admin overview as revenue per destination", async () => {
    const overview = await (await get("/admin", admin)).text();
    expect(overview).toContain("Revenue by destination");
  });
});

describe("the Send SMS counter", () => {
  it("costs the message at the destination's price, without JavaScript too (Check cost)", async () => {
    const customer = await createTestUser();
    const check = (phoneNumber: string) =>
      fetch(`${base}/sms/sendSms`, {
        method: "POST",
        headers: { Cookie: customer.cookie, Origin: base },
        body: form({ intent: "check", phoneNumber, message: "x".repeat(200) }),
      }).then((answer) => answer.text());
    // +44 costs 3 a segment (the import above).
    expect(await check("+44 7911 123456")).toContain(
      "2 segments · Cost: 6 credits<!-- --> (3 credits per segment to this destination)",
    );
    expect(await check("+1 202 555 0100")).toContain("2 segments · Cost: 2 credits</span>");
  });
});

describe("a group send whose members are priced differently", () => {
  it("shows the total to confirm first, then sends and charges exactly it", async () => {
    await savePrice({ prefix: "12025551", creditsPerSegment: 2 });
    const customer = await createTestUser();
    await grantCredits(customer.id, 10);
    const { groupId } = await seedGroup(customer.id, 2, 1998);
    const send = (extra: Record<string, string> = {}) =>
      fetch(`${base}/sms/accountGroups?panel=send&id=${groupId}`, {
        method: "POST",
        headers: { Cookie: customer.cookie, Origin: base },
        body: form({ intent: "send", id: String(groupId), message: "Hi", requestKey: "priced-group-send", ...extra }),
        redirect: "manual",
      });
    const confirm = await send();
    expect(confirm.status).toBe(200);
    const page = await confirm.text();
    expect(page).toContain("2 messages, 4 credits");
    expect(await getBalance(customer.id)).toBe(10);
    const quoted = /name="quoted" value="([^"]+)"/.exec(page)![1];
    const started = await send({ quoted });
    expect(started.status).toBe(302);
    // The fan-out is the worker's job: run here.
    const sendId = Number(new URL(started.headers.get("location")!, base).searchParams.get("send"));
    expect(await runGroupSend(sendId)).toMatchObject({ queued: 2, credits: 4 });
    expect(await getBalance(customer.id)).toBe(6);
  });
});
