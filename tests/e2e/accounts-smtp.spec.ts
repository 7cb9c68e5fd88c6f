// E-mail verification with a mail server: its own server with SMTP_URL pointing at a real SMTP sink,
// so REQUIRE_EMAIL_VERIFICATION is on by default; the link is read from the mail the sink received.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSmtpSink } from "#tests/support/smtp.ts";
import { portBelowEphemeral } from "#tests/support/ports.ts";
import { waitFor } from "#tests/support/wait.ts";
import { expect, login, newAccount, register, test } from "#tests/e2e/fixtures.ts";

const port = portBelowEphemeral("accountsSmtp");
const baseURL = `http://localhost:${port}`;
test.use({ baseURL });
test.describe.configure({ mode: "serial", timeout: 180_000 });

let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let app: ChildProcess;
let dataDir: string;
let output = "";

test.beforeAll(async () => {
  test.setTimeout(180_000);
  sink = await startSmtpSink();
  dataDir = mkdtempSync(join(tmpdir(), "smsgw-accounts-smtp-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    REDIS_URL: "",
    SESSION_SECRET: "accounts-smtp-session-secret-32-characters",
    SEED_DEMO: "0",
    SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
    APP_URL: baseURL,
    LOG_LEVEL: "warn",
  };
  delete env.REQUIRE_EMAIL_VERIFICATION;
  app = spawn(process.execPath, ["scripts/run.mjs", "scripts/start.ts"], { env, stdio: ["ignore", "pipe", "pipe"] });
  for (const stream of [app.stdout!, app.stderr!]) stream.on("data", (chunk: Buffer) => (output += chunk.toString()));
  await waitFor(
    async () =>
      app.exitCode !== null ||
      (await fetch(`${baseURL}/healthz`).then(
        (r) => r.ok,
        () => false,
      )),
    { timeout: 170_000, interval: 200, what: "the server with a mail server" },
  );
  if (app.exitCode !== null) throw new Error(`start exited:\n${output}`);
});

test.afterAll(async () => {
  if (app && app.exitCode === null) {
    const exited = new Promise((resolve) => app.once("exit", resolve));
    app.kill("SIGTERM");
    await exited;
  }
  await sink?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test("a new account must open the e-mailed link before it sends; the resend button mails a new one", async ({
  page,
}) => {
  const account = newAccount("verify");
  await register(page, account);
  await login(page, account);
  // Nothing acts for the account before its address is proved: the key form gives way to the notice.
  await page.goto("/sms/apiToken");
  await expect(page.getByText("Please verify your e-mail address before creating API keys")).toBeVisible();
  await expect(page.getByRole("button", { name: "Create API Key" })).toHaveCount(0);
  await page.goto("/sms/sendSms");

  const notice = page.getByText("Please verify your e-mail address before sending SMS");
  await expect(notice).toBeVisible();
  await page.getByLabel("Phone Number").fill("+1 202 555 0123");
  await page.getByLabel("Message").fill("Before verifying");
  await page.getByRole("button", { name: "Send SMS" }).click();
  await expect(page.getByText("open the link we e-mailed you, or ask for a new one")).toBeVisible();

  const mailsTo = () => sink.mails.filter((m) => m.envelope.to.includes(account.email));
  await waitFor(() => mailsTo().length === 1 || undefined, { what: "the sign-up verification mail" });
  await page.getByRole("button", { name: "Resend verification e-mail" }).click();
  await expect(
    page.getByTestId("toast").filter({ hasText: `We have e-mailed a new verification link to ${account.email}.` }),
  ).toBeVisible();
  const latest = await waitFor(() => (mailsTo().length === 2 ? mailsTo()[1] : undefined), { what: "the resent mail" });
  expect(latest.headers.subject).toBe("Verify your e-mail address for SMS Gateway");
  const link = new RegExp(`${baseURL}/verify-email/[A-Za-z0-9_-]{43}`).exec(latest.text)?.[0];
  expect(link).toBeTruthy();

  await page.goto(link!);
  await expect(page).toHaveURL(/\/sms\/sendSms$/);
  await expect(page.getByTestId("toast").filter({ hasText: "Your e-mail address is verified." })).toBeVisible();
  await expect(notice).toHaveCount(0);
  // The gate is gone: what stops this send now is the empty balance.
  await page.getByLabel("Phone Number").fill("+1 202 555 0123");
  await page.getByLabel("Message").fill("After verifying");
  await page.getByRole("button", { name: "Send SMS" }).click();
  await expect(page.getByText("Failed to send SMS, please check to ensure that you have enough credits")).toBeVisible();
});

test("a reset offers to revoke every API key and webhook endpoint; ticked, the account's key is gone", async ({
  page,
}) => {
  const account = newAccount("revoke");
  await register(page, account);
  const mailsTo = (subject: string) =>
    sink.mails.filter((m) => m.envelope.to.includes(account.email) && m.headers.subject.startsWith(subject));
  const linkIn = (text: string, path: string) => new RegExp(`${baseURL}${path}[A-Za-z0-9_-]{43}`).exec(text)![0];
  const verification = await waitFor(() => mailsTo("Verify your e-mail")[0], { what: "the verification mail" });
  await page.goto(linkIn(verification.text, "/verify-email/"));
  await login(page, account);
  await page.goto("/sms/apiToken");
  await page.getByRole("button", { name: "Create API Key" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "Your API key is ready." })).toBeVisible();
  await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/localhost:\d+\/$/);

  await page.goto("/forgot-password");
  await page.getByLabel("Email").fill(account.email);
  await page.getByRole("button", { name: "Send Reset Link" }).click();
  const reset = await waitFor(() => mailsTo("Reset your")[0], { what: "the reset mail" });
  expect(reset.text).toContain("“Also revoke every API key and webhook endpoint of the account”");
  await page.goto(linkIn(reset.text, "/reset-password/"));
  const revoke = page.getByLabel("Also revoke every API key and webhook endpoint of the account");
  await expect(revoke).not.toBeChecked();
  await revoke.check();
  await page.getByLabel("New Password", { exact: true }).fill("revoked-keys-42");
  await page.getByLabel("Confirm New Password").fill("revoked-keys-42");
  await page.getByRole("button", { name: "Set New Password" }).click();
  await expect(
    page.getByTestId("toast").filter({ hasText: "1 API key and 0 webhook endpoints were revoked." }),
  ).toBeVisible();

  await login(page, { ...account, password: "revoked-keys-42" });
  await page.goto("/sms/apiToken");
  await expect(page.getByText("You do not have an API key yet.")).toBeVisible();
});
