import { describe, expect, it } from "vitest";
import { messageBodyField } from "#app/modules/messaging/schemas.ts";
import { countSegments } from "#app/modules/messaging/segments.ts";
import {
  hasMergeFields,
  mergeFieldsOf,
  messageForMember,
  previewTemplate,
  renderMergeFields,
  SAMPLE_CONTACT,
  unknownMergeFieldsError,
} from "#app/modules/messaging/merge-fields.ts";
import { describeQuote } from "#app/modules/templates/quote.ts";

const ana = { name: "Ana", phone: "+15550100", email: "ana@example.com" };

describe("renderMergeFields", () => {
  it("replaces each known field by the recipient's value, spaces and case inside the braces aside", () => {
    expect(renderMergeFields("Hi {{name}}, we call {{ Phone }} or write to {{email}}.", ana)).toEqual({
      ok: true,
      text: "Hi Ana, we call +15550100 or write to ana@example.com.",
    });
    expect(mergeFieldsOf("{{name}} {{email|none}} {{name}}")).toEqual(["name", "email"]);
  });

  it("uses the fallback only when the value is empty, and reports the first field with neither", () => {
    expect(renderMergeFields("Hi {{name|there}}!", ana)).toEqual({ ok: true, text: "Hi Ana!" });
    expect(renderMergeFields("Hi {{name|there}}!", { ...ana, name: "  " })).toEqual({ ok: true, text: "Hi there!" });
    expect(renderMergeFields("Hi {{name}}, {{email}}", { phone: "+15550100" })).toEqual({ ok: false, missing: "name" });
    // An empty fallback is no fallback.
    expect(renderMergeFields("Hi {{name|}}", { name: "" })).toEqual({ ok: false, missing: "name" });
  });

  it("leaves a body without merge fields, and a lone pair of braces, as they are", () => {
    expect(hasMergeFields("Plain text")).toBe(false);
    expect(renderMergeFields("Use {{ to open", ana)).toEqual({ ok: true, text: "Use {{ to open" });
  });
});

describe("unknown fields", () => {
  it("are named, once each, with the fields that exist", () => {
    expect(unknownMergeFieldsError("Hi {{nmae}} and {{nmae}} {{first_name|x}} {{name}}")).toBe(
      "Unknown merge fields {{nmae}}, {{first_name|x}}: use {{name}}, {{phone}} or {{email}}, with a fallback like {{name|there}}",
    );
    expect(unknownMergeFieldsError("Hi {{name|there}}")).toBeNull();
  });

  it("are refused by every form's message field", () => {
    const field = messageBodyField(10);
    const bad = field.safeParse("Hello {{nmae}}");
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0].message).toMatch(/^Unknown merge field \{\{nmae\}\}/);
    expect(field.safeParse("Hello {{name|there}}").success).toBe(true);
  });
});

describe("messageForMember: each member's text priced by its own segments", () => {
  it("a UCS-2 name makes that member's message UCS-2", () => {
    const body = `Hi {{name}}, ${"x".repeat(55)}`;
    expect(messageForMember(body, { name: "Ana" }, 10)).toEqual({ text: `Hi Ana, ${"x".repeat(55)}`, credits: 1 });
    // 3 + 6 + 2 + 55 = 66 UCS-2 units: one segment of 70; with the surname, 72: two parts.
    expect(countSegments(`Hi Łukasz, ${"x".repeat(55)}`)).toMatchObject({ encoding: "UCS-2", segments: 1 });
    expect(messageForMember(body, { name: "Łukasz" }, 10)).toEqual({
      text: `Hi Łukasz, ${"x".repeat(55)}`,
      credits: 1,
    });
    expect(messageForMember(body, { name: "Łukasz Nowak" }, 10)).toMatchObject({ credits: 2 });
    // The same 12 characters in GSM-7 fit one segment.
    expect(messageForMember(body, { name: "Lukasz Nowak" }, 10)).toMatchObject({ credits: 1 });
  });

  it("crosses the GSM-7 segment boundary with the name's length", () => {
    const body = `{{name}}${"x".repeat(150)}`;
    // 160 septets: one segment; 161: two (153 each).
    expect(messageForMember(body, { name: "0123456789" }, 10)).toMatchObject({ credits: 1 });
    expect(messageForMember(body, { name: "01234567890" }, 10)).toMatchObject({ credits: 2 });
    // An extension character (€) costs two septets.
    expect(messageForMember(body, { name: "012345678€" }, 10)).toMatchObject({ credits: 2 });
  });

  it("skips a member without the field and without a fallback, or whose text is too long", () => {
    expect(messageForMember("Hi {{name}}", { name: "" }, 10)).toEqual({ skip: "no name and no fallback" });
    expect(messageForMember("Hi {{name|there}}", { name: "" }, 10)).toEqual({ text: "Hi there", credits: 1 });
    expect(messageForMember(`{{name}}${"x".repeat(150)}`, { name: "x".repeat(20) }, 1)).toEqual({
      skip: "message too long (2 segments, the maximum is 1)",
    });
  });
});

describe("the preview and the quote's sentence", () => {
  it("renders the sample contact with its encoding and segments, or says what is wrong", () => {
    expect(previewTemplate("Hi {{name|there}}")).toMatchObject({
      text: `Hi ${SAMPLE_CONTACT.name}`,
      count: { encoding: "GSM-7", segments: 1 },
    });
    expect(previewTemplate("Hi {{nmae}}")).toEqual({ error: expect.stringMatching(/^Unknown merge field/) });
  });

  it("reads like the confirm step says it", () => {
    expect(
      describeQuote({ messages: 312, credits: 340, skipped: 4, skipReasons: { "no name and no fallback": 4 } }),
    ).toBe("312 messages, 340 credits; 4 skipped: no name and no fallback");
    expect(
      describeQuote({
        messages: 1,
        credits: 1,
        skipped: 3,
        skipReasons: { "no name and no fallback": 2, "invalid phone number": 1 },
      }),
    ).toBe("1 message, 1 credit; 3 skipped: 2 no name and no fallback, 1 invalid phone number");
  });
});
