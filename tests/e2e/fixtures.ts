import { test as base, expect, type Page } from "@playwright/test";
import { randomUUID } from "node:crypto";

export { expect };

export type Account = { email: string; password: string; fullName: string };

export const demoAdmin: Account = { email: "admin@example.com", password: "admin12345", fullName: "Demo Admin" };

export function newAccount(label = "user"): Account {
  const id = randomUUID().slice(0, 8);
  return { email: `${label}-${id}@example.com`, password: `pw-${id}-secret`, fullName: `Test ${label} ${id}` };
}

export async function register(page: Page, account: Account) {
  await page.goto("/register");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Full Name").fill(account.fullName);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page).toHaveURL(/\/login$/);
}

export async function login(page: Page, account: Account, expectedPath: RegExp = /\/sms\/sendSms$/) {
  if (new URL(page.url()).pathname !== "/login") await page.goto("/login");
  // After a client-side redirect the URL can change before the login form replaces the old page.
  await expect(page.getByRole("heading", { level: 1, name: "Login" })).toBeVisible();
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await expect(page.getByLabel("Email")).toHaveValue(account.email);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page).toHaveURL(expectedPath);
}

/** Registers a fresh customer through the screens and signs in. */
export async function signUpAndLogin(page: Page, label = "user"): Promise<Account> {
  const account = newAccount(label);
  await register(page, account);
  await login(page, account);
  return account;
}

/**
 * Signs in through the login form's action over HTTP, without loading a page: the browser context
 * gets the session cookie. For tests whose subject is elsewhere (auth.spec.ts goes through the
 * screens); on a busy machine each page load can take seconds.
 */
export async function signInByRequest(page: Page, account: Account, expectedPath = "/sms/sendSms") {
  const signedIn = await page.request.post("/login", {
    form: { email: account.email, password: account.password },
    maxRedirects: 0,
  });
  expect(signedIn.headers().location, `login redirects to ${expectedPath}`).toBe(expectedPath);
}

/** A fresh customer, registered through the form's action over HTTP and signed in (signInByRequest). */
export async function signedInCustomer(page: Page, label = "user"): Promise<Account> {
  const account = newAccount(label);
  const form = { email: account.email, fullName: account.fullName, password: account.password };
  const registered = await page.request.post("/register", { form, maxRedirects: 0 });
  expect(registered.headers().location, "registration redirects to /login").toBe("/login");
  await signInByRequest(page, account);
  return account;
}

export const test = base;
