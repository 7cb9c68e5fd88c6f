/** A positive safe integer written in `value` ("3"), or undefined for a missing, empty, zero, negative, fractional or huge one. */
export function positiveInt(value: string | null | undefined): number | undefined {
  const n = Number(value);
  return value && Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** The query parameter `name` as a positive safe integer (`?page=3`), or undefined when absent or not one. */
export function positiveIntParam(searchParams: URLSearchParams, name: string): number | undefined {
  return positiveInt(searchParams.get(name));
}

/**
 * A record id from a route parameter or a form field: the positive safe integer written there, or 0
 * (which no row has) for anything else, so a malformed id finds nothing on either engine.
 */
export function idOf(value: FormDataEntryValue | string | null | undefined): number {
  return typeof value === "string" ? (positiveInt(value) ?? 0) : 0;
}
