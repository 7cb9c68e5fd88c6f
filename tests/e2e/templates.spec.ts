// Templates with merge fields: written with a mistake first, fixed, then sent to a group whose
// members each get their own text, with the total shown (and confirmed) before anything goes, and
// followed on its campaign page to delivered.
import { waitForCampaignSummary } from "#tests/e2e/campaigns.ts";
import { groupRow, seedAddressBook, toast } from "#tests/e2e/contacts.ts";
import { grantCredits } from "#tests/e2e/credits.ts";
import { expect, signedInCustomer, test } from "#tests/e2e/fixtures.ts";

const TEMPLATE = "Hi {{name}}, welcome to the club! Training is every Tuesday at 7pm.";
const textFor = (name: string) => TEMPLATE.replace("{{name}}", name);

test("create a template (a mistake first), send it to a group: the total before sending, each member's text in the history", async ({
  page,
  javaScriptEnabled,
}) => {
  const account = await signedInCustomer(page, "templates");
  await seedAddressBook(account.email, {
    groups: ["Club"],
    contacts: [
      { name: "Ann Archer", phone: "+12025550171", email: "ann@example.com", groups: ["Club"] },
      // A UCS-2 name: this member's text needs two segments.
      { name: "Łukasz Nowakowski", phone: "+12025550172", email: "lukasz@example.com", groups: ["Club"] },
      // No name and no fallback: skipped.
      { name: "", phone: "+12025550173", email: "anon@example.com", groups: ["Club"] },
    ],
  });
  await grantCredits(account.email, 20);

  await page.goto("/sms/templates");
  await expect(page.getByRole("heading", { level: 1, name: "Templates" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Templates", exact: true, includeHidden: true })).toBeAttached();
  await expect(page.getByText("You have no templates yet.")).toBeVisible();

  // The mistake: an unknown field, refused beside the message.
  await page.getByLabel("Name").fill("Welcome");
  await page.getByLabel("Message").fill(TEMPLATE.replace("{{name}}", "{{nmae}}"));
  await page.getByRole("button", { name: "Create template" }).click();
  const message = page.getByLabel("Message");
  await expect(message).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByRole("alert").filter({ hasText: "Unknown merge field {{nmae}}" })).toBeVisible();
  await expect(page.getByTestId("template-row")).toHaveCount(0);

  // Fixed: the preview renders it for the sample contact, with its encoding and segments.
  await message.fill(TEMPLATE);
  if (!javaScriptEnabled) await page.getByRole("button", { name: "Preview" }).click();
  const preview = page.getByTestId("template-preview");
  await expect(preview).toContainText(textFor("Alex Morgan"));
  await expect(preview).toContainText("GSM-7");
  await expect(preview).toContainText("1 segment");
  await page.getByRole("button", { name: "Create template" }).click();
  await expect(toast(page, "Template created.")).toBeAttached();
  await expect(page.getByTestId("template-row").filter({ hasText: "Welcome" })).toBeVisible();

  // The group's Send panel starts from the template.
  await page.goto("/sms/accountGroups");
  await groupRow(page, "Club").getByRole("link", { name: "Send SMS" }).click();
  const panel = page.getByRole("region", { name: "Send SMS to the group Club" });
  await panel.getByLabel("Start from a template").selectOption({ label: "Welcome" });
  if (!javaScriptEnabled) await panel.getByRole("button", { name: "Use template" }).click();
  await expect(panel.getByLabel("Message")).toHaveValue(TEMPLATE);

  // Send SMS shows the total first; nothing is charged yet.
  await panel.getByRole("button", { name: "Send SMS" }).click();
  await expect(panel.getByTestId("template-quote")).toHaveText(
    "2 messages, 3 credits; 1 skipped: no name and no fallback",
  );
  await expect(panel).toContainText(`Łukasz Nowakowski: ${textFor("Łukasz Nowakowski")}`);
  await expect(page.getByTestId("balance")).toHaveText("Account balance: 20 credits");

  await panel.getByRole("button", { name: "Send", exact: true }).click();
  const result = page.getByTestId("group-send-result");
  await expect(async () => {
    const refresh = result.getByRole("link", { name: "Refresh" });
    // Before hydration the Refresh link shows with JavaScript too, then goes: a short click ends this try only.
    if (await refresh.isVisible()) await refresh.click({ timeout: 1_000 });
    await expect(result).toContainText("Queued 2 messages (3 credits)", { timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  await expect(result).toContainText("no name and no fallback");
  await expect(page.getByTestId("balance")).toHaveText("Account balance: 17 credits");

  await page.goto("/sms/messageHistory");
  for (const [name, phone] of [
    ["Ann Archer", "+12025550171"],
    ["Łukasz Nowakowski", "+12025550172"],
  ]) {
    await expect(page.getByTestId("message-row").filter({ hasText: textFor(name) })).toContainText(phone);
  }
  await expect(page.getByTestId("message-row")).toHaveCount(2);

  // Its campaign page, followed until both are delivered: the skipped member with its reason.
  await page.goto("/sms/campaigns");
  await page.getByTestId("campaign-row").filter({ hasText: "Club" }).getByRole("link").first().click();
  await expect(page).toHaveURL(/\/sms\/campaigns\/\d+$/);
  await waitForCampaignSummary(page, javaScriptEnabled, "2 of 2 delivered.");
  await expect(page.getByRole("progressbar", { name: /Delivery of campaign/ })).toHaveAttribute("aria-valuenow", "100");
  await expect(page.getByTestId("campaign-body")).toHaveText(TEMPLATE);
  await expect(page.locator("main")).toContainText("no name and no fallback");
});
