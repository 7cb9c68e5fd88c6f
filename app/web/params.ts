/** A positive safe integer written in `value` ("3"), or undefined for a missing, empty, zero, negative, fractional or huge one. */
export function positiveInt(value: string | null | undefined): number | undefined {
  const n = Number(value);
  return value && Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** The query parameter `name` as a positive safe integer (`?page=3`), or undefined when absent or not one. */
export function positiveIntParam(searchParams: URLSearchParams, name: string): number | undefined {
  return positiveInt(searchParams.get(name));
}
