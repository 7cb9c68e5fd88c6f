// Webhook targets inside the gateway's own network are refused when saved and when delivered
// (WEBHOOK_ALLOW_PRIVATE is off here); a redirect is not followed (webhooks.test.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postWebhook } from "#app/modules/webhooks/deliver.server.ts";
import { createEndpoint, listEndpoints } from "#app/modules/webhooks/endpoints.server.ts";
import { checkWebhookUrl, isRefusedAddress } from "#app/modules/webhooks/targets.server.ts";
import { action as webhooksAction } from "#app/routes/sms/webhooks.tsx";
import { apiCustomer, callApi } from "#tests/support/api.ts";
import { call, createTestUser, dataOf, makeRequest, statusOf } from "#tests/support/requests.ts";
import { WebhookReceiver } from "#tests/support/webhook-receiver.ts";

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await WebhookReceiver.start();
});
afterAll(async () => {
  await receiver?.stop();
});

describe("webhook targets", () => {
  it.each([
    ["http://127.0.0.1/hook", "127.0.0.1"],
    ["http://10.0.0.1/hook", "10.0.0.1"],
    ["http://169.254.169.254/latest/meta-data/", "169.254.169.254"],
    ["http://localhost:8080/hook", "localhost resolves to"],
    ["http://[::1]/hook", "::1"],
    ["http://[::ffff:127.0.0.1]/hook", "::ffff:7f00:1"],
    ["http://100.64.1.2/hook", "100.64.1.2"],
    ["http://192.168.1.10/hook", "192.168.1.10"],
  ])("refuses %s when it is saved", async (url, names) => {
    const user = await createTestUser();
    await expect(createEndpoint(user.id, { url, events: ["message.delivered"], enabled: true })).rejects.toThrow(names);
    expect(await listEndpoints(user.id)).toEqual([]);
  });

  it("refuses what is not a plain http(s) URL", async () => {
    await expect(checkWebhookUrl("ftp://example.com/x")).rejects.toThrow("must start with");
    await expect(checkWebhookUrl("not a url")).rejects.toThrow("full URL");
    await expect(checkWebhookUrl("https://user:pw@example.com/x")).rejects.toThrow("user name or password");
  });

  it("tells the refused address ranges from public ones", () => {
    for (const address of ["127.0.0.1", "10.1.2.3", "172.16.0.1", "169.254.169.254", "100.64.0.1", "0.0.0.0"])
      expect(isRefusedAddress(address), address).toBe(true);
    for (const address of ["::1", "fe80::1", "fd00:ec2::254", "::ffff:10.0.0.1", "::ffff:a00:1", "64:ff9b::7f00:1"])
      expect(isRefusedAddress(address), address).toBe(true);
    for (const address of ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])
      expect(isRefusedAddress(address), address).toBe(false);
  });

  it.each([
    ["::7f00:1", "IPv4-compatible (::/96)"],
    ["::808:808", "IPv4-compatible (::/96), even of a public address"],
    ["64:ff9b:1::a00:1", "local-use NAT64 (64:ff9b:1::/48)"],
    ["64:ff9b:1:ffff::8.8.8.8", "local-use NAT64 (64:ff9b:1::/48), even of a public address"],
    ["64:ff9b::a9fe:a9fe", "well-known NAT64 of 169.254.169.254"],
    ["2002:7f00:1::", "6to4 of 127.0.0.1 (2002::/16)"],
    ["2002:a9fe:a9fe::1", "6to4 of 169.254.169.254"],
    ["2002:c0a8:10a:1::1", "6to4 of 192.168.1.10"],
    ["fec0::1", "site-local (fec0::/10)"],
    ["feff:ffff::1", "site-local, its last address"],
  ])("refuses %s: %s", (address) => {
    expect(isRefusedAddress(address)).toBe(true);
  });

  it.each([
    ["2002:808:808::1", "6to4 of the public 8.8.8.8"],
    ["64:ff9b::808:808", "well-known NAT64 of the public 8.8.8.8"],
  ])("lets %s through: %s", (address) => {
    expect(isRefusedAddress(address)).toBe(false);
  });

  it("never names the addresses a refused host resolves to, on the page nor in the API", async () => {
    const user = await createTestUser();
    const page = await call(
      webhooksAction,
      makeRequest("/sms/webhooks", {
        user,
        form: { intent: "add", url: "http://localhost:8080/hook", events: "message.delivered", enabled: "on" },
      }),
    );
    expect(statusOf(page)).toBe(400);
    const pageMessage = JSON.stringify(dataOf(page));
    expect(pageMessage).toContain("localhost resolves to a private, loopback or link-local address");
    const customer = await apiCustomer();
    const api = await callApi("POST", "/api/v1/webhooks", {
      key: customer.key,
      json: { url: "http://localhost:8080/hook", events: ["message.delivered"] },
    });
    expect(api.status).toBe(422);
    expect(JSON.stringify(api.json)).toContain("localhost resolves to a private, loopback or link-local address");
    for (const answer of [pageMessage, JSON.stringify(api.json)]) {
      expect(answer).not.toContain("127.0.0.1");
      expect(answer).not.toContain("::1");
    }
    expect(await listEndpoints(user.id)).toEqual([]);
    expect(await listEndpoints(customer.id)).toEqual([]);
  });

  it("refuses at delivery too: a host resolving to loopback is never connected to, nor an IP literal", async () => {
    const port = new URL(receiver.url()).port;
    const byName = await postWebhook(`http://localhost:${port}/hook`, "{}", {});
    expect(byName).toMatchObject({ ok: false, statusCode: null });
    expect(byName.answer).toMatch(/localhost resolves to a private, loopback or link-local address/);
    expect(byName.answer).not.toMatch(/127\.0\.0\.1|::1/);
    const byAddress = await postWebhook(`http://127.0.0.1:${port}/hook`, "{}", {});
    expect(byAddress.answer).toMatch(/^Not sent: 127\.0\.0\.1 is a private, loopback or link-local address/);
    expect(receiver.received).toEqual([]);
  });
});
