// message_rollup is kept by the code that writes what it counts (decision 045, amendment of
// 2026-11-27), not by triggers: so only the files that call addToRollup may write messages or
// ledger entries. A new writer elsewhere would leave the dashboards' counts behind; go through
// message-store / the ledger instead, or add the file here with its rollup call.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { repoRoot as root, sourceFiles } from "#tests/support/source-files.ts";

/** SQL or Drizzle that inserts a message or ledger entry, or changes a message's status. */
const WRITES_COUNTED_ROWS =
  /insert into (sms_messages|credit_ledger)\b|update sms_messages set[^`"]*\bstatus\b|\.(insert|update)\((smsMessages|creditLedger)\)/i;

const KEEPS_THE_ROLLUP = [
  "app/modules/sms/message-store.server.ts",
  "app/modules/credits/ledger.server.ts",
  "app/modules/seed/demo-data.server.ts",
];

it("writes messages and ledger entries only where the rollup is kept with them", () => {
  const writers = sourceFiles("app", "server", "worker").filter((file) =>
    WRITES_COUNTED_ROWS.test(readFileSync(join(root, file), "utf8").replace(/\s+/g, " ")),
  );
  expect(writers.sort()).toEqual([...KEEPS_THE_ROLLUP].sort());
  for (const file of KEEPS_THE_ROLLUP) expect(readFileSync(join(root, file), "utf8")).toContain("addToRollup(");
});
