// Absolute links come from APP_URL, never from the request's Host header: through the real HTTP
// server, requests that claim `Host: evil.example` get links to the configured address only.
import { request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "#app/db/client.server.ts";
import { mailOutbox } from "#app/db/schema/mail.ts";
import { deliverMail } from "#app/modules/mail/outbox.server.ts";
import { api } from "#server/api.ts";
import { startHttpServer, stopHttpServer } from "#server/http.ts";
import { sameOrigin } from "#server/same-origin.ts";
import { createTestUser } from "#tests/support/requests.ts";
import { startSmtpSink } from "#tests/support/smtp.ts";

const APP_URL = "https://sms.example.test";
const EVIL = "evil.example";

let server: Server;
let port: number;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;

beforeAll(async () => {
  sink = await startSmtpSink();
  // Read at the first getEnv(), after the imports.
  process.env.APP_URL = APP_URL;
  process.env.SMTP_URL = `smtp://127.0.0.1:${sink.port}`;
  process.env.PORT = "0";
  process.env.HOST = "127.0.0.1";
  process.env.LOG_LEVEL = "warn";
  // Vite (the server in tests) refuses unknown hosts itself; the built server in production does not.
  process.env.__VITE_ADDITIONAL_SERVER_ALLOWED_HOSTS = EVIL;
  server = await startHttpServer([sameOrigin, api]);
  port = (server.address() as AddressInfo).port;
}, 120_000);

afterAll(async () => {
  if (server) await stopHttpServer(server, 1_000);
  await sink?.stop();
});

/** A request as a client that chose its own Host header (fetch would not let us). */
function send(path: string, options: { method?: string; form?: Record<string, string>; cookie?: string } = {}) {
  const body = options.form ? new URLSearchParams(options.form).toString() : undefined;
  const headers: Record<string, string> = { host: EVIL, "x-forwarded-host": EVIL, "x-forwarded-proto": "http" };
  if (body) headers["content-type"] = "application/x-www-form-urlencoded";
  if (options.cookie) headers.cookie = options.cookie;
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, method: options.method ?? "GET", headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("absolute links with a forged Host header", () => {
  it("a password reset e-mails a link to APP_URL", async () => {
    const user = await createTestUser();
    const answer = await send("/forgot-password", { method: "POST", form: { email: user.email } });
    expect(answer.status).toBeLessThan(400);
    const mail = (await getDb()
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.to, user.email))
      .orderBy(desc(mailOutbox.id))
      .get())!;
    expect(await deliverMail(mail.id)).toBe("sent");
    const received = sink.mails.find((m) => m.envelope.to.includes(user.email))!;
    expect(received.text).toMatch(new RegExp(`${APP_URL}/reset-password/[A-Za-z0-9_-]+`));
    expect(received.text).not.toContain(EVIL);
  });

  it.each(["/sitemap.xml", "/robots.txt", "/api/v1/openapi.json", "/docs/api"])("%s names APP_URL", async (path) => {
    const answer = await send(path);
    expect(answer.status).toBe(200);
    expect(answer.text).toContain(APP_URL);
    expect(answer.text).not.toContain(EVIL);
  });

  it("the signed-in API reference and Documentation screen name APP_URL", async () => {
    const user = await createTestUser();
    for (const path of ["/docs/api", "/sms/documentation"]) {
      const answer = await send(path, { cookie: user.cookie });
      expect(answer.status, path).toBe(200);
      expect(answer.text, path).toContain(`${APP_URL}/api/v1`);
      expect(answer.text, path).not.toContain(EVIL);
    }
  });
});
