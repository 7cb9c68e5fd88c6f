// ACCESS_LOG=summary (the default): 200 successful API sends through the real HTTP server write a
// summary line, not a line each; a request that fails on our side gets its own line (decision 117).
import { afterAll, beforeAll, expect, it } from "vitest";
import { type Line, startLoggedApi } from "#tests/support/access-log.ts";
import { sqlExec } from "#tests/support/database.ts";

let logged: Awaited<ReturnType<typeof startLoggedApi>>;

beforeAll(async () => {
  logged = await startLoggedApi("summary");
}, 60_000);

afterAll(() => logged?.stop());

it("summarises successful API sends in one line per window and logs a failed request on its own", async () => {
  expect(await logged.send(200)).toEqual(Array(200).fill(201));

  // A send the database refuses: a 500.
  await sqlExec({
    sqlite:
      "create trigger refuse_sends before insert on sms_messages begin select raise(abort, 'injected failure'); end",
    postgres: `create function refuse_sends() returns trigger language plpgsql as $$ begin raise exception 'injected failure'; end $$;
      create trigger refuse_sends before insert on sms_messages for each row execute function refuse_sends()`,
  });
  expect(await logged.send(1)).toEqual([500]);
  await sqlExec({
    sqlite: "drop trigger refuse_sends",
    postgres: "drop trigger refuse_sends on sms_messages; drop function refuse_sends()",
  });

  await logged.stop();
  const http = logged.lines().filter((line) => line.scope === "http");
  expect(http).toContainEqual(
    expect.objectContaining({ level: "warn", msg: "POST /api/v1/messages 500", ms: expect.any(Number) }),
  );
  const summaries = http.filter((line) => line.msg.startsWith("API "));
  // One window unless the sends outlasted 10 s on a busy machine.
  expect(summaries.length).toBeGreaterThanOrEqual(1);
  expect(summaries.length).toBeLessThanOrEqual(2);
  expect(summaries.reduce((sum, line) => sum + (line.requests as number), 0)).toBe(201);
  const last = summaries.at(-1) as Line;
  expect(last).toMatchObject({ level: "info", p50_ms: expect.any(Number), p99_ms: expect.any(Number) });
  expect(last.statuses).toMatch(/^201:\d+ 500:1$/);
  // Everything the 201 requests wrote: the summary lines, and the failure's own line and its cause.
  expect(logged.lines().length).toBeLessThanOrEqual(summaries.length + 2);
});
