// The campaign page's wait for receipts, as a user does it: with JavaScript the page refreshes its
// counts by itself; without, the user follows its Refresh link until they are all in.
import type { Page } from "@playwright/test";
import { expect } from "#tests/e2e/fixtures.ts";

export async function waitForCampaignSummary(page: Page, javaScriptEnabled: boolean, text: string): Promise<void> {
  const summary = page.getByTestId("campaign-summary");
  if (javaScriptEnabled) {
    await expect(summary).toHaveText(text, { timeout: 60_000 });
    return;
  }
  await expect(async () => {
    const refresh = page.getByRole("link", { name: "Refresh" });
    if (await refresh.isVisible()) await refresh.click();
    await expect(summary).toHaveText(text, { timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
}
