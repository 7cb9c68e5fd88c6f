import { contactRow, createContact, createGroup, groupRow, seedAddressBook, toast } from "#tests/e2e/contacts.ts";
import { grantCredits } from "#tests/e2e/credits.ts";
import { expect, signedInCustomer, test } from "#tests/e2e/fixtures.ts";

// Each test starts from its own account and, past the creation screens, from an address book
// written straight into the database: short tests that hold on a busy machine.
const FRIENDS_AND_WORK = {
  groups: ["Friends", "Work"],
  contacts: [
    { name: "Ann Archer", phone: "+12025550131", email: "ann@example.com", groups: ["Friends"] },
    { name: "Ben Baker", phone: "+12025550132", email: "ben@example.com", groups: ["Friends", "Work"] },
    { name: "Cat Cole", phone: "+447911123456", email: "cat@example.com", groups: ["Friends"] },
  ],
};

test("create groups", async ({ page }) => {
  await signedInCustomer(page, "groups");
  await page.goto("/sms/createContact");
  await expect(page.getByRole("heading", { level: 1, name: "Create Contact" })).toBeVisible();
  await expect(page.getByText("No groups available")).toBeVisible();
  await createGroup(page, "Friends", "People we like");
  await createGroup(page, "Work", "Colleagues");
  await expect(page.getByTestId("group-row")).toHaveCount(2);
});

test("create contacts in groups, whatever the number's format", async ({ page }) => {
  const account = await signedInCustomer(page, "contacts");
  await seedAddressBook(account.email, { groups: ["Friends", "Work"], contacts: [] });
  await createContact(page, {
    name: "Ann Archer",
    phone: "+1 202 555 0131",
    email: "ann@example.com",
    groups: ["Friends"],
  });
  await expect(page).toHaveURL(/\/sms\/accountContacts/);
  await expect(toast(page, "Contact created successfully!")).toBeAttached();
  await expect(contactRow(page, "Ann Archer")).toContainText("+12025550131");
  await expect(contactRow(page, "Ann Archer")).toContainText("Friends");
  await createContact(page, {
    name: "Ben Baker",
    phone: "(202) 555-0132",
    email: "ben@example.com",
    groups: ["Friends", "Work"],
  });
  await expect(toast(page, "Contact created successfully!")).toBeAttached();
  await expect(contactRow(page, "Ben Baker")).toContainText("+12025550132");
  await expect(contactRow(page, "Ben Baker")).toContainText("Work");
});

test("a contact's time zone: one that does not exist is refused next to the field, then a real one is kept", async ({
  page,
}) => {
  const account = await signedInCustomer(page, "contactzone");
  await seedAddressBook(account.email, { groups: ["Friends"], contacts: [] });
  await page.goto("/sms/createContact");
  await page.getByLabel("Name").fill("Zoe Zone");
  await page.getByLabel("Phone Number").fill("+12025550141");
  await page.getByLabel("Email").fill("zoe@example.com");
  await page.getByLabel("Time Zone (optional)").fill("Mars/Olympus");
  await page.getByRole("button", { name: "Create Contact" }).click();
  const zone = page.getByLabel("Time Zone (optional)");
  await expect(zone).toHaveAttribute("aria-invalid", "true");
  // The message belongs to the field (its description), not only to the form's summary.
  await expect(zone).toHaveAccessibleDescription(/Enter a time zone such as Europe\/Berlin or America\/New_York/);
  // Nothing was saved, and what was typed is still there to correct.
  await expect(page.getByLabel("Name")).toHaveValue("Zoe Zone");
  await zone.fill("Europe/Berlin");
  await page.getByRole("button", { name: "Create Contact" }).click();
  await expect(toast(page, "Contact created successfully!")).toBeAttached();
  await expect(page.getByTestId("contact-row")).toHaveCount(1);

  await contactRow(page, "Zoe Zone").getByRole("link", { name: "Edit Contact" }).click();
  const edit = page.getByRole("region", { name: "Edit Contact: Zoe Zone" });
  await expect(edit.getByLabel("Time Zone (optional)")).toHaveValue("Europe/Berlin");
});

test("the same number twice is refused, and says why", async ({ page }) => {
  const account = await signedInCustomer(page, "duplicate");
  await seedAddressBook(account.email, FRIENDS_AND_WORK);
  await createContact(page, { name: "Ann Again", phone: "202 555 0131", email: "again@example.com", groups: [] });
  await expect(page.getByRole("alert").filter({ hasText: "Failed to create contact." })).toContainText(
    "You already have a contact with the phone number +12025550131 (Ann Archer)",
  );
  await expect(page.getByLabel("Phone Number")).toHaveAttribute("aria-invalid", "true");
});

test("the contacts list: its columns and buttons; edit a contact's name and groups", async ({ page }) => {
  const account = await signedInCustomer(page, "contactedit");
  await seedAddressBook(account.email, FRIENDS_AND_WORK);
  await page.goto("/sms/accountContacts");
  await expect(page.getByRole("heading", { level: 1, name: "Contacts" })).toBeVisible();
  for (const column of ["Name", "Email", "Phone Number", "Groups", "SMS Gateway", "Actions"]) {
    await expect(page.getByRole("columnheader", { name: column, exact: true })).toBeAttached();
  }
  await expect(page.getByRole("link", { name: "Create New Contact" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Back" })).toBeVisible();
  await expect(page.getByTestId("contact-row")).toHaveCount(3);

  await contactRow(page, "Cat Cole").getByRole("link", { name: "Edit Contact" }).click();
  await expect(page).toHaveURL(/panel=edit&id=\d+/);
  const edit = page.getByRole("region", { name: "Edit Contact: Cat Cole" });
  await edit.getByLabel("Name").fill("Cat Carter");
  await edit.getByLabel("Friends", { exact: true }).uncheck();
  await edit.getByLabel("Work", { exact: true }).check();
  await edit.getByRole("button", { name: "Update Contact" }).click();
  await expect(toast(page, "Contact updated successfully!")).toBeAttached();
  await expect(page).not.toHaveURL(/panel=/);
  await expect(contactRow(page, "Cat Carter")).toContainText("Work");
  await expect(contactRow(page, "Cat Carter")).not.toContainText("Friends");
});

test("send an SMS to one contact from its row", async ({ page, javaScriptEnabled }) => {
  const account = await signedInCustomer(page, "contactsend");
  await seedAddressBook(account.email, FRIENDS_AND_WORK);
  await grantCredits(account.email, 20);
  await page.goto("/sms/accountContacts");
  await contactRow(page, "Ann Archer").getByRole("link", { name: "Send SMS" }).click();
  const send = page.getByRole("region", { name: "Send SMS to Ann Archer" });
  await expect(send).toContainText("To: Ann Archer (+12025550131)");
  await send.getByLabel("Message").fill("Hi Ann, your order is ready.");
  if (!javaScriptEnabled) await send.getByRole("button", { name: "Check cost" }).click();
  await expect(page.getByTestId("segment-counter")).toContainText("1 segment · Cost: 1 credit");
  await send.getByRole("button", { name: "Send SMS" }).click();
  await expect(toast(page, "SMS sent successfully!")).toBeAttached();
  await expect(page.getByTestId("balance")).toHaveText("Account balance: 19 credits");
  await page.goto("/sms/messageHistory");
  await expect(page.getByTestId("message-row").filter({ hasText: "Hi Ann, your order is ready." })).toContainText(
    "+12025550131",
  );
});

test("send an SMS to a group in one post; the screen reports it and the history lists every member's", async ({
  page,
  javaScriptEnabled,
}) => {
  const account = await signedInCustomer(page, "groupsendok");
  // Friends: Ann and Ben.
  await seedAddressBook(account.email, {
    groups: FRIENDS_AND_WORK.groups,
    contacts: FRIENDS_AND_WORK.contacts.map((c) => (c.name === "Cat Cole" ? { ...c, groups: ["Work"] } : c)),
  });
  await grantCredits(account.email, 20);
  await page.goto("/sms/accountGroups");
  await groupRow(page, "Friends").getByRole("link", { name: "Send SMS" }).click();
  const friendsSend = page.getByRole("region", { name: "Send SMS to the group Friends" });
  await friendsSend.getByLabel("Message").fill("Party on Friday!");
  if (!javaScriptEnabled) await friendsSend.getByRole("button", { name: "Check cost" }).click();
  await expect(page.getByTestId("group-cost")).toHaveText("2 active contacts × 1 credit = 2 credits");
  await friendsSend.getByRole("button", { name: "Send SMS" }).click();
  const result = page.getByTestId("group-send-result");
  if (javaScriptEnabled) {
    await expect(result.getByRole("progressbar", { name: "Sending to Friends" })).toHaveAttribute(
      "aria-valuenow",
      "100",
      { timeout: 60_000 },
    );
  } else {
    // Without JavaScript the panel shows the counts so far; Refresh shows more.
    await expect(async () => {
      const refresh = result.getByRole("link", { name: "Refresh" });
      if (await refresh.isVisible()) await refresh.click();
      await expect(result).toContainText("Done.", { timeout: 1_000 });
    }).toPass({ timeout: 60_000 });
  }
  await expect(result).toContainText("Queued 2 messages (2 credits).");
  await expect(page.getByTestId("balance")).toHaveText("Account balance: 18 credits");

  await result.getByRole("link", { name: "Message History" }).click();
  await expect(page).toHaveURL(/\/sms\/messageHistory$/);
  const party = page.getByTestId("message-row").filter({ hasText: "Party on Friday!" });
  await expect(party).toHaveCount(2);
  for (const phone of ["+12025550131", "+12025550132"]) await expect(party.filter({ hasText: phone })).toHaveCount(1);
});

test("delete a contact, with confirmation (a dialog with JavaScript, a panel without); Cancel changes nothing", async ({
  page,
  javaScriptEnabled,
}) => {
  const account = await signedInCustomer(page, "contactdel");
  await seedAddressBook(account.email, FRIENDS_AND_WORK);
  await page.goto("/sms/accountContacts");
  await contactRow(page, "Ben Baker").getByRole("link", { name: "Delete Contact" }).click();
  const confirmContact = javaScriptEnabled
    ? page.getByRole("dialog")
    : page.getByRole("region", { name: "Delete Contact: Ben Baker" });
  await expect(confirmContact).toContainText("Are you sure you want to delete this contact?");
  await confirmContact.getByRole("link", { name: "Cancel" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(contactRow(page, "Ben Baker")).toBeVisible();
  await contactRow(page, "Ben Baker").getByRole("link", { name: "Delete Contact" }).click();
  await confirmContact.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(toast(page, "Contact deleted successfully!")).toBeAttached();
  await expect(contactRow(page, "Ben Baker")).toHaveCount(0);
  await expect(page.getByTestId("contact-row")).toHaveCount(2);
});

test("delete a group, with confirmation: its contacts stay", async ({ page, javaScriptEnabled }) => {
  const account = await signedInCustomer(page, "groupdel");
  await seedAddressBook(account.email, FRIENDS_AND_WORK);
  await page.goto("/sms/accountGroups");
  await groupRow(page, "Friends").getByRole("link", { name: "Delete Group" }).click();
  const confirmGroup = javaScriptEnabled
    ? page.getByRole("dialog")
    : page.getByRole("region", { name: "Delete Group: Friends" });
  await expect(confirmGroup).toContainText("Are you sure you want to delete this group?");
  await confirmGroup.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(toast(page, "Group deleted successfully!")).toBeAttached();
  await expect(groupRow(page, "Friends")).toHaveCount(0);
  await expect(groupRow(page, "Work")).toBeVisible();
  await page.goto("/sms/accountContacts");
  await expect(contactRow(page, "Ann Archer")).toBeVisible();
  await expect(contactRow(page, "Ann Archer")).not.toContainText("Friends");
  await expect(contactRow(page, "Ben Baker")).toContainText("Work");
});

test("an empty group is an error; a group send short of credits says what it needs", async ({ page }) => {
  const account = await signedInCustomer(page, "groupsend");
  await grantCredits(account.email, 1);
  await seedAddressBook(account.email, {
    groups: ["Nobody", "Pair"],
    contacts: [
      { name: "One", phone: "+12025550141", email: "one@example.com", groups: ["Pair"] },
      { name: "Two", phone: "+12025550142", email: "two@example.com", groups: ["Pair"] },
    ],
  });
  await page.goto("/sms/accountGroups");
  await groupRow(page, "Nobody").getByRole("link", { name: "Send SMS" }).click();
  const panel = page.getByRole("region", { name: "Send SMS to the group Nobody" });
  await expect(panel).toContainText("This group has no contacts yet");
  await panel.getByLabel("Message").fill("Hello?");
  await panel.getByRole("button", { name: "Send SMS" }).click();
  await expect(panel.getByRole("alert")).toContainText("This group has no contacts: add contacts to it first");

  await page.goto("/sms/accountGroups");
  await groupRow(page, "Pair").getByRole("link", { name: "Send SMS" }).click();
  const pair = page.getByRole("region", { name: "Send SMS to the group Pair" });
  await pair.getByLabel("Message").fill("Hello both");
  await pair.getByRole("button", { name: "Send SMS" }).click();
  await expect(pair.getByRole("alert")).toContainText(
    "Failed to send SMS, please check to ensure that you have enough credits",
  );
  await expect(pair.getByRole("alert")).toContainText("costs 2 credits; your balance is 1 credit.");
  await page.goto("/sms/messageHistory");
  await expect(page.getByText("You have not sent any messages yet.")).toBeVisible();
});

test("import contacts from a CSV file, with a report of the rows it skipped", async ({ page }) => {
  await signedInCustomer(page, "import");
  await page.goto("/sms/accountContacts");
  await page.getByRole("link", { name: "Import CSV" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Import Contacts" })).toBeVisible();
  const csv = [
    "name,phone,email,group",
    "Ida Irwin,+1 202 555 0161,ida@example.com,Club",
    "No Number,,none@example.com,",
    "Jo Jansen,+1 202 555 0162,jo@example.com,Club",
  ].join("\n");
  await page.getByLabel("CSV file").setInputFiles({ name: "club.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await page.getByRole("button", { name: "Upload and preview" }).click();
  await expect(page.getByText("club.csv: 4 rows.")).toBeVisible();
  await expect(page.getByLabel("The first row holds column names (do not import it)")).toBeChecked();
  await expect(page.getByLabel("Phone Number")).toHaveValue("1");
  await page.getByRole("button", { name: "Import Contacts" }).click();
  await expect(toast(page, "Imported 2 contacts, updated 0, skipped 1.")).toBeAttached();
  await expect(page.getByTestId("import-summary")).toContainText("Imported 2, updated 0, skipped 1.");
  await expect(page.getByTestId("skipped-row")).toHaveText(["3Phone number is required"]);
  await page.getByRole("link", { name: "Contacts", exact: true }).click();
  await expect(contactRow(page, "Ida Irwin")).toContainText("Club");
  await expect(contactRow(page, "Jo Jansen")).toContainText("+12025550162");

  // Cancel on the preview throws the upload away.
  await page.getByRole("link", { name: "Import CSV" }).click();
  await page
    .getByLabel("CSV file")
    .setInputFiles({ name: "again.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await page.getByRole("button", { name: "Upload and preview" }).click();
  await expect(page.getByText("again.csv: 4 rows.")).toBeVisible();
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page).toHaveURL(/\/sms\/accountContacts$/);
});
