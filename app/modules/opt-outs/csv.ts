// Reading a list of numbers to opt out: one per line, the first column of a CSV (a header line is
// simply a line that is not a number).
import { type CountryCode, normalizePhone } from "#app/modules/messaging/phone.ts";

export type OptOutCsv = { phones: string[]; invalid: number };

export function readOptOutCsv(text: string, defaultCountry: CountryCode): OptOutCsv {
  const phones: string[] = [];
  let invalid = 0;
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  lines.forEach((line, index) => {
    const first = line
      .split(/[,;\t]/, 1)[0]
      .trim()
      .replace(/^"|"$/g, "");
    if (!first) return;
    const phone = normalizePhone(first, defaultCountry);
    if (phone.ok) phones.push(phone.e164);
    // The first line may be the column's title.
    else if (index > 0) invalid += 1;
  });
  return { phones, invalid };
}
