import { expect, newAccount, register, test } from "#tests/e2e/fixtures.ts";

// A busy shared machine can take most of a minute to sign in: three times the usual limit.
test.slow();

test("a toast dragged sideways past 80% of its width closes; a shorter drag brings it back", async ({ page }) => {
  await register(page, newAccount("swipe"));
  const toast = page.getByTestId("toast").filter({ hasText: "Registration successful!" });
  await expect(toast).toBeVisible();
  const box = (await toast.boundingBox())!;
  const y = box.y + box.height / 2;
  // Grab it away from the close button; under the pointer it stays until let go.
  const x = box.x + 16;
  await page.mouse.move(x, y);

  await page.mouse.down();
  await page.mouse.move(x - box.width * 0.7, y, { steps: 10 });
  await expect(toast).toHaveCSS("translate", `${-box.width * 0.7}px`);
  await page.mouse.up();
  await expect(toast).toBeVisible();
  await expect(toast).toHaveCSS("translate", "none");

  await page.mouse.down();
  await page.mouse.move(x - box.width * 0.85, y, { steps: 10 });
  await page.mouse.up();
  await expect(toast).toHaveCount(0);
});
