import { getOwnApiKey } from "#app/modules/api-keys/keys.server.ts";

/** The reader's own key for the documentation's examples; null when they have none or it cannot be opened. */
export async function exampleApiKey(userId: number): Promise<string | null> {
  try {
    return (await getOwnApiKey(userId))?.key ?? null;
  } catch {
    // The API Token page says what is wrong; the examples simply keep the placeholder.
    return null;
  }
}
