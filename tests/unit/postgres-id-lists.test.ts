// On PostgreSQL a list of ids passed as one JSON parameter is matched with `= any(array(select ...))`
// (decision 141): as `in (select ... from jsonb_array_elements_text(...))` the planner's 100-row guess
// for the function gives a hash semi-join over a sequential scan of any table under some tens of
// thousands of rows (the receipts' parts look-up took 6.5 ms a call instead of 0.15 ms).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { repoRoot, sourceFiles } from "#tests/support/source-files.ts";

const SEMI_JOIN_ON_A_JSON_LIST = /\bin \(select [^()]* from jsonb_array_elements(_text)?\(/i;

it("matches id lists on PostgreSQL with = any(array(...)), never in (select ... from jsonb_array_elements...)", () => {
  const offenders = sourceFiles("app", "server", "worker").filter((file) =>
    SEMI_JOIN_ON_A_JSON_LIST.test(readFileSync(join(repoRoot, file), "utf8").replace(/\s+/g, " ")),
  );
  expect(offenders).toEqual([]);
});
