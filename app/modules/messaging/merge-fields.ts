// Browser-safe: merge fields ({{name}}, {{phone}}, {{email}}, with a fallback {{name|there}}) in a
// message body, checked by the forms, rendered per recipient by the send paths and the live preview.
import { countSegments, type SegmentCount } from "#app/modules/messaging/segments.ts";

export const MERGE_FIELDS = ["name", "phone", "email"] as const;
export type MergeField = (typeof MERGE_FIELDS)[number];
export type MergeValues = Record<MergeField, string>;

/** What the preview renders when no real contact is at hand. */
export const SAMPLE_CONTACT: MergeValues = { name: "Alex Morgan", phone: "+447700900123", email: "alex@example.com" };

// {{ field }} or {{ field | fallback }}; braces never nest, so the shortest match is the field.
const TOKEN = /\{\{([^{}|]*)(?:\|([^{}]*))?\}\}/g;

/**
 * Whether a body goes through the merge-field path. Only a body with "{{" pays for it: every other
 * message takes the send path exactly as before.
 */
export function hasMergeFields(body: string): boolean {
  return body.includes("{{");
}

function isMergeField(name: string): name is MergeField {
  return (MERGE_FIELDS as readonly string[]).includes(name);
}

/** The message for a body's unknown fields ("{{nmae}}"), or null when every field is known. */
export function unknownMergeFieldsError(body: string): string | null {
  if (!hasMergeFields(body)) return null;
  const unknown = new Set<string>();
  for (const match of body.matchAll(TOKEN)) {
    const field = match[1].trim().toLowerCase();
    if (!isMergeField(field)) unknown.add(match[0]);
  }
  if (unknown.size === 0) return null;
  return (
    `Unknown merge field${unknown.size > 1 ? "s" : ""} ${[...unknown].join(", ")}: ` +
    "use {{name}}, {{phone}} or {{email}}, with a fallback like {{name|there}}"
  );
}

/** The fields a body uses (lower case, in order of first use). */
export function mergeFieldsOf(body: string): MergeField[] {
  const used = new Set<MergeField>();
  for (const match of body.matchAll(TOKEN)) {
    const field = match[1].trim().toLowerCase();
    if (isMergeField(field)) used.add(field);
  }
  return [...used];
}

export type Rendered = { ok: true; text: string } | { ok: false; missing: MergeField };

/**
 * The body for one recipient: each field replaced by the recipient's value, else by its fallback;
 * a field empty for this recipient with no fallback makes it `{ ok: false, missing }`. Unknown
 * fields (refused by the forms) stay as they are.
 */
export function renderMergeFields(body: string, values: Partial<MergeValues>): Rendered {
  let missing: MergeField | null = null;
  const text = body.replace(TOKEN, (token, rawField: string, fallback: string | undefined) => {
    const field = rawField.trim().toLowerCase();
    if (!isMergeField(field)) return token;
    const value = values[field]?.trim() ?? "";
    if (value) return value;
    if (fallback !== undefined && fallback.trim()) return fallback.trim();
    missing ??= field;
    return "";
  });
  return missing ? { ok: false, missing } : { ok: true, text };
}

/** The skip reason of a recipient whose `field` is empty where the body has no fallback for it. */
function missingFieldReason(field: MergeField): string {
  return `no ${field} and no fallback`;
}

export type TemplatePreview = { text: string; count: SegmentCount } | { error: string };

/** The body rendered for the sample contact, with its encoding and segments (the template screen's preview). */
export function previewTemplate(body: string, sample: MergeValues = SAMPLE_CONTACT): TemplatePreview {
  const unknown = unknownMergeFieldsError(body);
  if (unknown) return { error: unknown };
  const rendered = renderMergeFields(body, sample);
  if (!rendered.ok) return { error: `The sample contact has ${missingFieldReason(rendered.missing)}` };
  return { text: rendered.text, count: countSegments(rendered.text) };
}

/**
 * One group member's message: the body rendered for them, priced by its own segments; or why they
 * are skipped (a field they lack with no fallback, or a text longer than `maxSegments`).
 */
export function messageForMember(
  body: string,
  member: Partial<MergeValues>,
  maxSegments: number,
): { text: string; credits: number } | { skip: string } {
  const rendered = renderMergeFields(body, member);
  if (!rendered.ok) return { skip: missingFieldReason(rendered.missing) };
  const { segments, credits } = countSegments(rendered.text);
  if (segments < 1) return { skip: "empty message" };
  if (segments > maxSegments) return { skip: `message too long (${segments} segments, the maximum is ${maxSegments})` };
  return { text: rendered.text, credits };
}
