import { execFile, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SECRET_VARIABLE, WEBHOOK_VERIFICATION_EXAMPLES } from "#app/api/webhook-verification.ts";

const secret = `whsec_${randomBytes(24).toString("base64")}`;
const signer = new Webhook(secret);
const example = (language: string) => WEBHOOK_VERIFICATION_EXAMPLES.find((e) => e.language === language)!.code;
const dir = mkdtempSync(join(tmpdir(), "webhook-verification-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A delivery as the gateway makes it: the body and its Standard Webhooks headers. */
function delivery(id: string, event: unknown, at = new Date()) {
  const body = JSON.stringify(event);
  return {
    body,
    headers: {
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": signer.sign(id, at, body),
    },
  };
}

const statusEvent = (status: string, updatedAt: string) => ({
  type: `message.${status === "delivered" ? "delivered" : "sent"}`,
  timestamp: updatedAt,
  data: { id: 42, direction: "outbound", status, updatedAt },
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

describe("the documented Node receiver, run as printed", () => {
  let child: ReturnType<typeof spawn>;
  let url: string;
  let output = "";

  beforeAll(async () => {
    // The snippet as printed; only the package name points at this checkout's copy of it.
    const standardwebhooks = pathToFileURL(createRequire(import.meta.url).resolve("standardwebhooks")).href;
    const file = join(dir, "receiver.mjs");
    writeFileSync(file, example("node").replace('from "standardwebhooks"', `from "${standardwebhooks}"`));
    const port = await freePort();
    url = `http://127.0.0.1:${port}/`;
    child = spawn(process.execPath, [file], { env: { ...process.env, PORT: String(port), [SECRET_VARIABLE]: secret } });
    child.stdout!.on("data", (chunk) => (output += chunk));
  });
  afterAll(() => child?.kill());

  const post = (d: ReturnType<typeof delivery>) =>
    fetch(url, { method: "POST", body: d.body, headers: d.headers }).then((r) => r.status);

  it("accepts a signed delivery, refuses a forged or stale one, handles a retry once and ignores an older event", async () => {
    // Listening once an unsigned request is refused.
    await expect
      .poll(
        () =>
          fetch(url, { method: "POST" }).then(
            (r) => r.status,
            () => 0,
          ),
        { timeout: 15_000 },
      )
      .toBe(400);
    const delivered = delivery("evt_1", statusEvent("delivered", "2026-03-01T09:30:04.000Z"));
    expect(await post(delivered)).toBe(204);
    // A retry: the same webhook-id, signed again at a later time.
    expect(await post(delivery("evt_1", statusEvent("delivered", "2026-03-01T09:30:04.000Z")))).toBe(204);
    // A late, older event about the same message.
    expect(await post(delivery("evt_0", statusEvent("submitted", "2026-03-01T09:30:01.000Z")))).toBe(204);
    // Tampered body, wrong secret, too old.
    expect(await post({ ...delivered, body: delivered.body.replace("delivered", "failed") })).toBe(400);
    const other = new Webhook(`whsec_${randomBytes(24).toString("base64")}`);
    expect(
      await post({
        ...delivered,
        headers: { ...delivered.headers, "webhook-signature": other.sign("evt_1", new Date(), delivered.body) },
      }),
    ).toBe(400);
    expect(
      await post(
        delivery("evt_2", statusEvent("delivered", "2026-03-01T09:31:00.000Z"), new Date(Date.now() - 3_600_000)),
      ),
    ).toBe(400);

    await expect.poll(() => output).toContain("message.delivered");
    const handled = output.trim().split("\n");
    expect(handled).toHaveLength(1);
    expect(handled[0]).toMatch(/^message\.delivered .*"status":"delivered"/);
  });
});

const hasShellTools = ["sh", "openssl", "base64", "od"].every(
  (tool) => spawnSync("sh", ["-c", `command -v ${tool}`]).status === 0,
);

describe.skipIf(!hasShellTools)("the documented openssl check", () => {
  const run = (d: ReturnType<typeof delivery>) => {
    const script = join(dir, "verify-webhook.sh");
    const body = join(dir, "body.json");
    writeFileSync(script, example("curl"));
    writeFileSync(body, d.body);
    return promisify(execFile)("sh", [script, body], {
      env: {
        ...process.env,
        [SECRET_VARIABLE]: secret,
        WEBHOOK_ID: d.headers["webhook-id"],
        WEBHOOK_TIMESTAMP: d.headers["webhook-timestamp"],
        WEBHOOK_SIGNATURE: d.headers["webhook-signature"],
      },
    }).then(
      ({ stdout }) => stdout.trim(),
      (error: { stderr: string }) => error.stderr.trim(),
    );
  };

  it("says OK to a real signature and refuses a changed body or an old timestamp", async () => {
    const event = statusEvent("delivered", "2026-03-01T09:30:04.000Z");
    expect(await run(delivery("evt_1", event))).toBe("signature OK");
    const signed = delivery("evt_1", event);
    expect(await run({ ...signed, body: `${signed.body} ` })).toBe("signature does not match");
    expect(await run(delivery("evt_1", event, new Date(Date.now() - 3_600_000)))).toMatch(/^timestamp more than/);
  });
});

describe.skipIf(spawnSync("python3", ["--version"]).status !== 0)("the documented Python receiver", () => {
  it("is valid Python", () => {
    const result = spawnSync("python3", ["-c", "import ast, sys; ast.parse(sys.stdin.read())"], {
      input: example("python"),
    });
    expect(result.stderr.toString()).toBe("");
    expect(result.status).toBe(0);
  });
});
