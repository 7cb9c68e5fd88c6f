import { describe, expect, it } from "vitest";
import {
  canMove,
  FINAL_STATUSES,
  fromStatuses,
  isFinal,
  MESSAGE_EVENTS,
  MESSAGE_STATUS_LABELS,
  MESSAGE_STATUSES,
  type MessageEvent,
  type MessageStatus,
  movesFrom,
  statusFromParts,
} from "#app/modules/messaging/message-status.ts";

const CARRIER_FINAL = ["delivered", "undelivered", "expired", "rejected"] as const;

// Every move the gateway makes, written out: anything not here must be refused.
const ALLOWED: Record<MessageEvent, [MessageStatus, MessageStatus][]> = {
  claim: [["queued", "submitting"]],
  accept: [["submitting", "submitted"]],
  requeue: [
    ["queued", "queued"],
    ["submitting", "queued"],
  ],
  fail: [
    ["queued", "failed"],
    ["submitting", "failed"],
  ],
  interrupt: [["submitting", "unknown"]],
  receipt: [
    ["submitted", "unknown"],
    ...CARRIER_FINAL.map((to): [MessageStatus, MessageStatus] => ["submitted", to]),
    ...CARRIER_FINAL.map((to): [MessageStatus, MessageStatus] => ["unknown", to]),
  ],
};
const EVENTS = Object.keys(MESSAGE_EVENTS) as MessageEvent[];

describe("message state machine", () => {
  it("knows exactly these events", () => {
    expect(EVENTS.sort()).toEqual(Object.keys(ALLOWED).sort());
  });

  for (const event of EVENTS) {
    describe(event, () => {
      const allowed = new Set(ALLOWED[event].map(([from, to]) => `${from}->${to}`));
      for (const from of MESSAGE_STATUSES) {
        for (const to of MESSAGE_STATUSES) {
          const move = `${from}->${to}`;
          it(`${allowed.has(move) ? "allows" : "refuses"} ${move}`, () => {
            expect(canMove(event, from, to)).toBe(allowed.has(move));
          });
        }
      }

      it("moves only from the statuses it has moves for", () => {
        const froms = [...new Set(ALLOWED[event].map(([from]) => from))];
        expect(fromStatuses(event).sort()).toEqual(froms.sort());
        for (const status of MESSAGE_STATUSES) expect(movesFrom(event, status)).toBe(froms.includes(status));
      });
    });
  }

  it("refuses a late receipt after a final status, and a late ENROUTE after delivered", () => {
    for (const final of [...CARRIER_FINAL, "failed"] as const) {
      for (const receipt of [...CARRIER_FINAL, "unknown"] as const)
        expect(canMove("receipt", final, receipt)).toBe(false);
    }
    expect(canMove("receipt", "unknown", "unknown")).toBe(false);
    expect(canMove("receipt", "unknown", "submitted")).toBe(false);
  });

  it("does not let receipts settle a message whose acceptance is not recorded yet", () => {
    for (const status of ["queued", "submitting", "failed"] as const) expect(movesFrom("receipt", status)).toBe(false);
  });

  it("has the carrier's answers and failed as its final statuses; unknown can still be settled by a receipt", () => {
    expect([...FINAL_STATUSES].sort()).toEqual(["delivered", "expired", "failed", "rejected", "undelivered"]);
    for (const status of MESSAGE_STATUSES) {
      expect(isFinal(status)).toBe(FINAL_STATUSES.includes(status));
      // A final status is one no event moves on from.
      expect(isFinal(status)).toBe(EVENTS.every((event) => !movesFrom(event, status)));
    }
    expect(isFinal("unknown")).toBe(false);
  });

  it("labels every status as the history's badge shows it", () => {
    expect(MESSAGE_STATUS_LABELS).toEqual({
      queued: "Queued",
      submitting: "Sending",
      submitted: "Sent",
      delivered: "Delivered",
      undelivered: "Undelivered",
      expired: "Expired",
      rejected: "Rejected",
      failed: "Failed",
      unknown: "Unknown",
    });
  });
});

describe("a message's status from its parts", () => {
  const part = (status: MessageStatus, error: string | null = null) => ({ status, error });

  it("is delivered only when every part is", () => {
    expect(statusFromParts([part("delivered"), part("delivered")], 2)).toEqual({ status: "delivered", error: null });
    expect(statusFromParts([part("delivered"), part("submitted")], 2)).toEqual({ status: "submitted", error: null });
    // A part not accepted yet counts as not delivered.
    expect(statusFromParts([part("delivered")], 2)).toEqual({ status: "submitted", error: null });
  });

  it("takes the first carrier failure of any part, with its error code", () => {
    expect(statusFromParts([part("delivered"), part("expired", "027"), part("rejected", "011")], 3)).toEqual({
      status: "expired",
      error: "Carrier error 027",
    });
    expect(statusFromParts([part("undelivered")], 1)).toEqual({ status: "undelivered", error: null });
  });

  it("is unknown when a part's receipt said so and none failed", () => {
    expect(statusFromParts([part("delivered"), part("unknown")], 2)).toEqual({ status: "unknown", error: null });
  });
});
