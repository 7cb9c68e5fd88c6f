// CPU per call of normalizePhone on canonical E.164 input (what API senders send) against
// libphonenumber-js's cheaper entry points, to look for a fast path that is never dearer:
//   normalizePhone            what the API calls (parse with the default country, isValid, E.164 check)
//   parse + isValid, extract  the same without the text extraction step ({ extract: false })
//   core, min metadata        libphonenumber-js/core with the min metadata passed in, extract off
//   isValidPhoneNumber        the validity answer alone (no E.164 returned)
//   parse only                parsePhoneNumberFromString without isValid (not an answer: the floor)
// 50,000 distinct numbers (+1, +44, +49, +33, +81; every call a first sight), rounds interleaved.
//   node scripts/run.mjs scripts/bench/phone-parse.ts [--numbers 50000] [--rounds 3]
import { isValidPhoneNumber, parsePhoneNumberFromString } from "libphonenumber-js";
import { parsePhoneNumberFromString as parseWithMetadata } from "libphonenumber-js/core";
import minMetadata from "libphonenumber-js/min/metadata";
import { parseArgs } from "node:util";
import { normalizePhone } from "#app/modules/messaging/phone.ts";

const { values: args } = parseArgs({
  options: { numbers: { type: "string", default: "50000" }, rounds: { type: "string", default: "3" } },
});

// Each prefix with the length of its country's numbers ("+" included).
const PLANS: [string, number][] = [
  ["+1202", 12],
  ["+1416", 12],
  ["+447911", 13],
  ["+49151", 14],
  ["+336", 12],
  ["+8190", 13],
];
// A fixed sequence (not Math.random) so that runs of two builds see the same numbers.
let seed = 29;
const digit = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 10;
const numbers = Array.from({ length: Number(args.numbers) }, (_, i) => {
  const [prefix, length] = PLANS[i % PLANS.length];
  return prefix + Array.from({ length: length - prefix.length }, digit).join("");
});

const ways: Record<string, (number: string) => unknown> = {
  normalizePhone: (number) => normalizePhone(number, "US"),
  "parse + isValid, extract off": (number) => {
    const parsed = parsePhoneNumberFromString(number, { defaultCountry: "US", extract: false });
    return parsed?.isValid() ? parsed.number : null;
  },
  "core, min metadata": (number) => {
    const parsed = parseWithMetadata(number, { extract: false }, minMetadata);
    return parsed?.isValid() ? parsed.number : null;
  },
  isValidPhoneNumber: (number) => isValidPhoneNumber(number, "US"),
  "parse only": (number) => parsePhoneNumberFromString(number, "US")?.number,
};

const perCall = new Map<string, number[]>(Object.keys(ways).map((name) => [name, []]));
for (let round = 0; round < Number(args.rounds); round++) {
  for (const [name, read] of Object.entries(ways)) {
    const start = process.cpuUsage();
    for (const number of numbers) read(number);
    const used = process.cpuUsage(start);
    perCall.get(name)!.push((used.user + used.system) / numbers.length);
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(`µs of CPU per call, ${numbers.length} distinct numbers, median of ${args.rounds} rounds (each round):`);
for (const [name, values] of perCall)
  console.log(`  ${name}: ${median(values).toFixed(2)} (${values.map((v) => v.toFixed(2)).join(", ")})`);
