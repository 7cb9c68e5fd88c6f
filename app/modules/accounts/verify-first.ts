// Browser-safe: what an account whose address is not verified yet is told, on the pages and by the actions.

/** What an unverified account may not do yet, each as the words that finish "before …". */
export const VERIFY_BEFORE = {
  sending: "sending SMS",
  apiKeys: "creating API keys",
  webhooks: "adding webhook endpoints",
  twoFactor: "turning on two-factor authentication",
  senders: "requesting sender IDs",
} as const;
type Before = (typeof VERIFY_BEFORE)[keyof typeof VERIFY_BEFORE];

/** The refusal an action answers with. */
export const verifyFirstMessage = (before: Before) =>
  `Please verify your e-mail address before ${before}: open the link we e-mailed you, or ask for a new one.`;

/** The notice a page shows in place of what it refuses. */
export const verifyFirstNotice = (before: Before) =>
  `Please verify your e-mail address before ${before}: open the link we e-mailed you when you registered.`;
