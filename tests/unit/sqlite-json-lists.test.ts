// SQLite reads a batch's JSON parameter with jsonb_each (decision 114's amendment): json_each hands
// each array or object element on as JSON text that every `value ->> n` parses again, so the messages'
// insert of 48 rows cost a third more (benchmark log, 2026-12-07); jsonb_each hands on the binary form.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { repoRoot, sourceFiles } from "#tests/support/source-files.ts";

it("reads JSON parameters on SQLite with jsonb_each, never json_each", () => {
  const offenders = sourceFiles("app", "server", "worker").filter((file) =>
    /\bjson_each\s*\(/i.test(readFileSync(join(repoRoot, file), "utf8")),
  );
  expect(offenders).toEqual([]);
});
