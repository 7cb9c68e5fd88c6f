import { grantCredits } from "#tests/e2e/credits.ts";
import { expect, signUpAndLogin, test } from "#tests/e2e/fixtures.ts";

// The simulator's phone answers a message with the word "reply" after its receipt (1.5 s here).
test("a phone answers: see it in the inbox, read it, reply, and see the reply in the thread", async ({
  page,
  javaScriptEnabled,
}) => {
  const account = await signUpAndLogin(page, "inbox");
  await grantCredits(account.email, 10);
  const phone = javaScriptEnabled ? "+12025550181" : "+12025550182";

  await page.goto("/sms/sendSms");
  await page.getByLabel("Phone Number").fill(phone);
  await page.getByRole("textbox", { name: "Message" }).fill("Are you free on Friday? Please reply");
  await page.getByRole("button", { name: "Send SMS" }).click();
  await expect(page.getByTestId("toast")).toContainText("SMS sent successfully!");

  // The answer comes after the receipt; the unread count in the nav says so on the next page load.
  const inbox = page.getByRole("link", { name: "Inbox, 1 unread" });
  await expect(async () => {
    await page.goto("/sms/inbox");
    await expect(inbox).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  await expect(page.getByRole("heading", { level: 1, name: "Inbox" })).toBeVisible();
  const conversation = page.getByTestId("conversation");
  await expect(conversation).toContainText(phone);
  await expect(conversation).toContainText("1 unread");
  await expect(conversation).toContainText("Got it, thanks!");

  await conversation.getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1, name: phone })).toBeVisible();
  const messages = page.getByTestId("thread-message");
  await expect(messages).toHaveCount(2);
  await expect(messages.nth(0)).toContainText("Are you free on Friday? Please reply");
  await expect(messages.nth(0)).toContainText("Delivered");
  await expect(messages.nth(1)).toContainText("Got it, thanks!");

  // With JavaScript the page marks itself read; without it, the button does.
  if (!javaScriptEnabled) await page.getByRole("button", { name: "Mark as read" }).click();
  await expect(page.getByRole("link", { name: "Inbox", exact: true })).toBeVisible();

  await page.getByRole("textbox", { name: "Message" }).fill("Great, see you then!");
  await page.getByRole("button", { name: "Send reply" }).click();
  await expect(page.getByTestId("toast")).toContainText("SMS sent successfully!");
  await expect(messages).toHaveCount(3);
  await expect(messages.nth(2)).toContainText("Great, see you then!");
  await expect(page.getByTestId("balance")).toHaveText("Account balance: 8 credits");
  await expect(page.getByRole("textbox", { name: "Message" })).toHaveValue("");
});

test("a reply the balance cannot pay is refused next to the form", async ({ page, javaScriptEnabled }) => {
  const account = await signUpAndLogin(page, "inbox-poor");
  await grantCredits(account.email, 1);
  const phone = javaScriptEnabled ? "+12025550183" : "+12025550184";
  await page.goto("/sms/sendSms");
  await page.getByLabel("Phone Number").fill(phone);
  await page.getByRole("textbox", { name: "Message" }).fill("Please reply");
  await page.getByRole("button", { name: "Send SMS" }).click();
  await expect(page.getByTestId("toast")).toContainText("SMS sent successfully!");
  await expect(async () => {
    await page.goto("/sms/inbox");
    await expect(page.getByTestId("conversation")).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  await page.getByTestId("conversation").getByRole("link").click();
  await page.getByRole("textbox", { name: "Message" }).fill("Thanks");
  await page.getByRole("button", { name: "Send reply" }).click();
  await expect(page.getByText("Failed to send SMS, please check to ensure that you have enough credits")).toBeVisible();
  await expect(page.getByTestId("thread-message")).toHaveCount(2);
});
