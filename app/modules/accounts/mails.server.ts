// The words of every account e-mail, in one place (the low-balance alert's are the ledger's, in credits/low-balance.server.ts).
import { getEnv } from "#app/utils/env.server.ts";
import { REVOKE_ACCESS_LABEL } from "#app/modules/accounts/schemas.ts";
import { mailSignature } from "#app/modules/mail/outbox.server.ts";

type Composed = { subject: string; text: string };

export function passwordResetMail(link: string): Composed {
  return {
    subject: "Reset your SMS Gateway password",
    text: [
      "Someone (we hope you) asked to reset the password of your SMS Gateway account.",
      "",
      "Choose a new password here (the link works once, for one hour):",
      link,
      "",
      `If someone else may have used your account, tick “${REVOKE_ACCESS_LABEL}” on that page:`,
      "your programs then need a new key, and your webhooks must be added again.",
      "",
      "If you did not ask, ignore this e-mail: your password stays as it is.",
      mailSignature(),
    ].join("\n"),
  };
}

export function verificationMail(fullName: string, link: string): Composed {
  return {
    subject: "Verify your e-mail address for SMS Gateway",
    text: [
      `Hello ${fullName},`,
      "",
      "Please confirm that this is your e-mail address by opening this link (it works for seven days):",
      link,
      "",
      "Until then you can sign in and buy credits, but not send SMS, make API keys or webhooks, or turn on two-factor.",
      "If you did not sign up for SMS Gateway, do not open the link: ignore this e-mail.",
      mailSignature(),
    ].join("\n"),
  };
}

export function emailChangeMail(newEmail: string, link: string): Composed {
  return {
    subject: "Confirm your new e-mail address for SMS Gateway",
    text: [
      `Your SMS Gateway account asked to use ${newEmail} from now on.`,
      "",
      "Open this link to make the change (it works once, for 24 hours):",
      link,
      "",
      "Until you do, the account keeps its current address.",
      mailSignature(),
    ].join("\n"),
  };
}

export function emailChangeNoticeMail(oldEmail: string, newEmail: string): Composed {
  return {
    subject: "Your SMS Gateway e-mail address is being changed",
    text: [
      `Someone signed in to your SMS Gateway account (${oldEmail}) asked to change its e-mail address to ${newEmail}.`,
      "",
      "Nothing changes until the link sent to the new address is opened.",
      "If this was not you, sign in and change your password now, and write to support.",
      mailSignature(),
    ].join("\n"),
  };
}

export function accountDisabledMail(): Composed {
  return {
    subject: "Your SMS Gateway account has been disabled",
    text: [
      "An administrator has disabled your SMS Gateway account.",
      "",
      "Until it is enabled again you cannot sign in, its API keys are refused, scheduled messages are not sent and",
      "webhooks are not called. Messages waiting to be sent were cancelled and their credits refunded.",
      "",
      "If you think this is a mistake, please reply to this e-mail or write to support.",
      mailSignature(),
    ].join("\n"),
  };
}

export function accountEnabledMail(): Composed {
  return {
    subject: "Your SMS Gateway account is enabled again",
    text: [
      "An administrator has enabled your SMS Gateway account again: you can sign in, and its API keys,",
      "scheduled messages and webhooks work as before.",
      `Sign in: ${getEnv().appUrl}/login`,
      mailSignature(),
    ].join("\n"),
  };
}

export function twoFactorClearedMail(): Composed {
  return {
    subject: "Two-factor authentication was turned off on your SMS Gateway account",
    text: [
      "An administrator has turned off two-factor authentication on your SMS Gateway account, as asked",
      "(for example after losing the phone with the authenticator app). Signing in now needs only your password.",
      "",
      `Turn it on again with your new phone: ${getEnv().appUrl}/account/two-factor`,
      "",
      "If you did not ask for this, change your password now and write to support.",
      mailSignature(),
    ].join("\n"),
  };
}
