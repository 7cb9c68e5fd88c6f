// Browser-safe: the words an inbound message starts with that change a phone's opt-out, and the
// replies' default wording (the admin's form shows them).
import { KEYWORD_REPLY_KINDS, type KeywordReplyKind } from "#app/db/enums.ts";

export { KEYWORD_REPLY_KINDS, type KeywordReplyKind };

const KEYWORDS: Record<string, KeywordReplyKind> = {
  STOP: "stop",
  STOPALL: "stop",
  UNSUBSCRIBE: "stop",
  CANCEL: "stop",
  END: "stop",
  QUIT: "stop",
  OPTOUT: "stop",
  REVOKE: "stop",
  START: "start",
  UNSTOP: "start",
  YES: "start",
  SUBSCRIBE: "start",
  HELP: "help",
  INFO: "help",
};

/** The keyword an inbound message starts with (its first word, any case, punctuation ignored), or null. */
export function keywordOf(body: string): { word: string; kind: KeywordReplyKind } | null {
  const first = body.trim().split(/\s+/, 1)[0] ?? "";
  const word = first.replace(/[^\p{L}]/gu, "").toUpperCase();
  const kind = KEYWORDS[word];
  return kind ? { word, kind } : null;
}

export const DEFAULT_KEYWORD_REPLIES: Record<KeywordReplyKind, string> = {
  stop: "You have been unsubscribed and will get no more messages from this sender. Reply START to subscribe again.",
  start: "You are subscribed again. Reply STOP to unsubscribe, HELP for help.",
  help: "Reply STOP to unsubscribe or START to subscribe again. Standard message rates may apply.",
};

export const KEYWORD_REPLY_LABELS: Record<KeywordReplyKind, string> = {
  stop: "Opt-out confirmation (STOP, UNSUBSCRIBE, ...)",
  start: "Opt-in confirmation (START, UNSTOP, ...)",
  help: "Help reply (HELP, INFO)",
};

/** The longest reply an admin may set: it goes out free, so keep it to two segments. */
export const KEYWORD_REPLY_MAX_LENGTH = 306;
