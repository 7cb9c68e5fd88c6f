const CHECKED = 10_000;

let common: Promise<Set<string>> | undefined;

// Loaded on the first sign-up, not at start: the list is a few MB once decompressed.
async function load(): Promise<Set<string>> {
  const { dictionary } = await import("@zxcvbn-ts/language-common");
  return new Set(dictionary["passwords-common"].slice(0, CHECKED).map((password) => password.toLowerCase()));
}

/** Whether the password is among the 10,000 most used ones (zxcvbn's ranked list), ignoring case. */
export async function isCommonPassword(password: string): Promise<boolean> {
  common ??= load();
  return (await common).has(password.toLowerCase());
}
