// STOP / START / HELP as the inbound job hands them over, and the opt-out enforced when a message is
// queued and again when the worker submits it.
import { describe, expect, it } from "vitest";
import { getBalance } from "#app/modules/credits/ledger.server.ts";
import { KeywordOptOutError, OptedOutError, OptOutNotFoundError } from "#app/modules/opt-outs/errors.ts";
import { keywordOf } from "#app/modules/opt-outs/keywords.ts";
import { applyInboundKeyword, HELP_REPLY_INTERVAL_MS } from "#app/modules/inbound/keywords.server.ts";
import { resetClock, setClock } from "#app/utils/clock.server.ts";
import {
  addOptOuts,
  getKeywordReplies,
  isOptedOut,
  listOptOuts,
  removeOptOut,
  setKeywordReplies,
} from "#app/modules/opt-outs/opt-outs.server.ts";
import { resolveSends } from "#app/modules/opt-outs/enforcement.server.ts";
import { createSender } from "#app/modules/senders/senders.server.ts";
import { sendQueuedMessage } from "#app/modules/sms/dispatch.server.ts";
import { queueMessage } from "#app/modules/sms/send.server.ts";
import { createTestUser } from "#tests/support/requests.ts";
import { acceptAll, grantCredits, ledgerKeys, messageRow } from "#tests/support/sms.ts";

const SHARED = "SMSGateway";
let received = 1_800_000_000_000;
const inbound = (phone: string, body: string, toAddress = SHARED, accountId: number | null = null) => ({
  phone,
  toAddress,
  accountId,
  body,
  receivedAt: received++,
});

async function customer(credits = 10) {
  const user = await createTestUser();
  await grantCredits(user.id, credits);
  return user;
}

describe("keywordOf", () => {
  it("reads the first word in any case, ignoring punctuation, and nothing else", () => {
    expect(keywordOf("stop")).toEqual({ word: "STOP", kind: "stop" });
    expect(keywordOf("  Unsubscribe please")).toEqual({ word: "UNSUBSCRIBE", kind: "stop" });
    expect(keywordOf("STOP.")).toEqual({ word: "STOP", kind: "stop" });
    for (const word of ["STOPALL", "CANCEL", "END", "QUIT", "OPTOUT", "REVOKE"])
      expect(keywordOf(word)?.kind).toBe("stop");
    for (const word of ["start", "UNSTOP", "Yes", "SUBSCRIBE"]) expect(keywordOf(word)?.kind).toBe("start");
    for (const word of ["help", "INFO"]) expect(keywordOf(word)?.kind).toBe("help");
    expect(keywordOf("please stop")).toBeNull();
    expect(keywordOf("Stopping by later")).toBeNull();
    expect(keywordOf("")).toBeNull();
  });
});

describe("STOP and START through the shared default sender", () => {
  it("opts the phone out of every account's sends from the shared sender, replies once, free, and START lifts it", async () => {
    const first = await customer();
    const second = await customer();
    const phone = "+12025550301";

    const stop = await applyInboundKeyword(inbound("12025550301", "Stop", SHARED, first.id));
    expect(stop).toMatchObject({ kind: "stop", changed: true });
    const reply = (await messageRow(stop!.replyId!))!;
    expect(reply).toMatchObject({
      userId: first.id,
      toPhone: phone,
      fromAddress: null,
      source: "keyword",
      credits: 0,
      status: "queued",
      body: (await getKeywordReplies()).stop,
    });
    expect(await getBalance(first.id)).toBe(10);
    expect((await ledgerKeys(first.id)).filter((k) => k.startsWith("msg:"))).toEqual([]);

    // A second STOP changes nothing and is not answered.
    expect(await applyInboundKeyword(inbound(phone, "STOP"))).toMatchObject({ changed: false, replyId: null });

    for (const user of [first, second]) {
      expect(await isOptedOut(user.id, phone)).toBe(true);
      const error = await queueMessage(user.id, { to: phone, body: "hi" }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OptedOutError);
      expect(error).toMatchObject({ code: "recipient_opted_out", phones: [phone] });
      expect(await getBalance(user.id)).toBe(10);
    }
    // The account the STOP was assigned to sees it, with its date.
    expect((await listOptOuts(first.id)).items).toEqual([
      expect.objectContaining({ phone, source: "keyword", keyword: "STOP", scope: "" }),
    ]);
    expect((await listOptOuts(second.id)).items).toEqual([]);

    const start = await applyInboundKeyword(inbound(phone, "start", SHARED, first.id));
    expect(start).toMatchObject({ kind: "start", changed: true });
    expect(await messageRow(start!.replyId!)).toMatchObject({ credits: 0, body: (await getKeywordReplies()).start });
    expect(await isOptedOut(second.id, phone)).toBe(false);
    const sent = await queueMessage(second.id, { to: phone, body: "welcome back" });
    expect((await messageRow(sent.id))?.status).toBe("queued");
    expect(await getBalance(second.id)).toBe(9);
  });

  it("answers HELP with the admin's text once per inbound message however often it is handled, and once in 10 minutes per phone", async () => {
    await setKeywordReplies({ ...(await getKeywordReplies()), help: "Acme alerts. Reply STOP to end." });
    const user = await customer();
    let now = Date.UTC(2026, 10, 2, 9);
    setClock(() => now);
    try {
      const message = inbound("+12025550302", "HELP me", SHARED, user.id);
      const first = await applyInboundKeyword(message);
      const again = await applyInboundKeyword(message);
      expect(again?.replyId).toBe(first?.replyId);
      expect(await messageRow(first!.replyId!)).toMatchObject({ body: "Acme alerts. Reply STOP to end.", credits: 0 });
      now += HELP_REPLY_INTERVAL_MS - 1;
      const soon = await applyInboundKeyword(inbound("+12025550302", "info", SHARED, user.id));
      expect(soon).toMatchObject({ kind: "help", replyId: null });
      now += 1;
      const later = await applyInboundKeyword(inbound("+12025550302", "info", SHARED, user.id));
      expect(later?.replyId).not.toBeNull();
      expect(later?.replyId).not.toBe(first?.replyId);
      expect(await isOptedOut(user.id, "+12025550302")).toBe(false);
    } finally {
      resetClock();
    }
  });

  it("sends one phone at most 5 automatic replies in 24 hours, whatever the keywords; STOP still opts it out", async () => {
    const user = await customer();
    const phone = "+12025550304";
    let now = Date.UTC(2026, 10, 3, 9);
    setClock(() => now);
    try {
      const replies = [];
      for (const word of ["STOP", "START", "STOP", "START", "HELP", "STOP"]) {
        now += HELP_REPLY_INTERVAL_MS;
        replies.push(await applyInboundKeyword(inbound(phone, word, SHARED, user.id)));
      }
      expect(replies.map((r) => r?.replyId !== null)).toEqual([true, true, true, true, true, false]);
      expect(replies.at(-1)).toMatchObject({ kind: "stop", changed: true });
      expect(await isOptedOut(user.id, phone)).toBe(true);
      now += 24 * 3_600_000;
      expect((await applyInboundKeyword(inbound(phone, "HELP", SHARED, user.id)))?.replyId).not.toBeNull();
    } finally {
      resetClock();
    }
  });

  it("ignores a message without a keyword", async () => {
    expect(await applyInboundKeyword(inbound("+12025550303", "Thanks, see you at 5"))).toBeNull();
  });
});

describe("STOP to an account's own sender", () => {
  it("covers sends from that sender only, and the reply goes from it", async () => {
    const user = await customer();
    await createSender({ address: "+447700900301", kind: "long_number", ton: 1, npi: 1, userId: user.id });
    await createSender({ address: "AcmeAlerts", kind: "alphanumeric", ton: 5, npi: 0, userId: user.id });
    const phone = "+12025550304";
    // The SMSC writes the number without its "+"; no account given: the sender's owner gets it.
    const stop = await applyInboundKeyword(inbound(phone, "QUIT", "447700900301"));
    expect(await messageRow(stop!.replyId!)).toMatchObject({ userId: user.id, fromAddress: "+447700900301" });
    expect((await listOptOuts(user.id)).items.map((o) => o.scope)).toEqual(["+447700900301"]);
    expect(await isOptedOut(user.id, phone, "+447700900301")).toBe(true);
    // The default sender is the first assigned: the long number.
    expect(await isOptedOut(user.id, phone)).toBe(true);
    expect(await isOptedOut(user.id, phone, "AcmeAlerts")).toBe(false);
    const other = await queueMessage(user.id, { to: phone, body: "from the other sender", from: "AcmeAlerts" });
    expect(await messageRow(other.id)).toMatchObject({ fromAddress: "AcmeAlerts", status: "queued" });
  });
});

describe("a batch's senders and opt-outs, resolved together", () => {
  it("gives each send its own sender and its own answer, whatever the others in the batch", async () => {
    const user = await customer();
    const stranger = await customer();
    await createSender({ address: "+447700900311", kind: "long_number", ton: 1, npi: 1, userId: user.id });
    await createSender({ address: "AcmeNews", kind: "alphanumeric", ton: 5, npi: 0, userId: user.id });
    await createSender({ address: "TheirOwn", kind: "alphanumeric", ton: 5, npi: 0, userId: stranger.id });
    await applyInboundKeyword(inbound("+12025550311", "STOP", "447700900311"));
    await applyInboundKeyword(inbound("+12025550312", "STOP", SHARED));
    await addOptOuts(user.id, ["+12025550313"], "manual");
    await addOptOuts(stranger.id, ["+12025550314"], "manual");
    expect(
      await resolveSends(user.id, [
        { to: "+12025550311" },
        { to: "+12025550311", from: "AcmeNews" },
        { to: "+12025550312" },
        { to: "+12025550313", from: "AcmeNews" },
        { to: "+12025550314" },
        { to: "+12025550315", from: "TheirOwn" },
      ]),
    ).toEqual([
      { fromAddress: "+447700900311", optedOut: true },
      { fromAddress: "AcmeNews", optedOut: false },
      // A STOP through the shared sender covers sends from it only: this account sends from its own.
      { fromAddress: "+447700900311", optedOut: false },
      { fromAddress: "AcmeNews", optedOut: true },
      { fromAddress: "+447700900311", optedOut: false },
      { fromAddress: null, optedOut: false },
    ]);
  });
});

describe("a STOP that arrives while the message waits in the queue", () => {
  it("wins: the worker fails the message as opted out and refunds it through the ledger", async () => {
    const user = await customer(5);
    const phone = "+12025550305";
    const queued = await queueMessage(user.id, { to: phone, body: "x".repeat(200) });
    expect(await getBalance(user.id)).toBe(3);
    await applyInboundKeyword(inbound(phone, "STOP", SHARED, user.id));
    expect(await sendQueuedMessage(acceptAll, queued.id)).toEqual({ kind: "failed", reason: "Opted out" });
    expect(await messageRow(queued.id)).toMatchObject({ status: "failed", error: "Opted out" });
    expect(await getBalance(user.id)).toBe(5);
    expect(await ledgerKeys(user.id)).toContain(`msg:${queued.id}:refund`);
  });

  it("still sends the free confirmation to the phone that opted out", async () => {
    const user = await customer();
    const stop = await applyInboundKeyword(inbound("+12025550306", "STOP", SHARED, user.id));
    expect(await sendQueuedMessage(acceptAll, stop!.replyId!)).toEqual({ kind: "submitted" });
  });
});

describe("numbers an account adds itself", () => {
  it("blocks its own sends only; it can remove them, but not a keyword opt-out, nor another account's", async () => {
    const user = await customer();
    const stranger = await customer();
    expect(await addOptOuts(user.id, ["+12025550307", "+12025550308", "+12025550307"], "manual")).toBe(2);
    expect(await addOptOuts(user.id, ["+12025550308"], "csv")).toBe(0);
    expect(await isOptedOut(user.id, "+12025550307")).toBe(true);
    expect(await isOptedOut(stranger.id, "+12025550307")).toBe(false);
    await expect(queueMessage(user.id, { to: "+12025550307", body: "no" })).rejects.toBeInstanceOf(OptedOutError);

    const [manual] = (await listOptOuts(user.id)).items.filter((o) => o.phone === "+12025550307");
    await expect(removeOptOut(stranger.id, manual.id)).rejects.toThrow(OptOutNotFoundError);
    await removeOptOut(user.id, manual.id);
    expect(await isOptedOut(user.id, "+12025550307")).toBe(false);

    await applyInboundKeyword(inbound("+12025550309", "STOP", SHARED, user.id));
    const keyword = (await listOptOuts(user.id)).items.find((o) => o.phone === "+12025550309")!;
    await expect(removeOptOut(user.id, keyword.id)).rejects.toThrow(KeywordOptOutError);
    expect(await isOptedOut(user.id, "+12025550309")).toBe(true);
  });
});
