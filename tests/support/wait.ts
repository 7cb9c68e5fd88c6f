type WaitOptions = { timeout?: number; interval?: number; what?: string | (() => string | Promise<string>) };

/** Polls until `check` returns something truthy (bounded), instead of sleeping on the wall clock. */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  { timeout = 30_000, interval = 20, what = "condition" }: WaitOptions = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline)
      throw new Error(`Timed out after ${timeout} ms waiting for ${typeof what === "function" ? await what() : what}`);
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}
