import type { Article } from "#app/modules/content/articles/article.ts";

export const article: Article = {
  slug: "sms-api-features-benefits-implementation",
  title: "SMS API: Features, Benefits and Implementation",
  description:
    "What a modern SMS API offers, what it brings to your business, and a step-by-step plan for adding text messaging to your application without surprises.",
  sections: [
    {
      id: "features",
      heading: "The features that matter",
      blocks: [
        "SMS APIs differ in the details, but the useful ones share a core set of capabilities:",
        {
          list: [
            "Single sends: one recipient, one message, one HTTP call that returns a message id.",
            "Bulk and group sends: one request fans out to a list of contacts, with a report of what was queued and what was skipped (for example an invalid number).",
            "Scheduling: send at a set time, or repeat daily, weekly or monthly until an end date.",
            "Delivery receipts: statuses such as queued, sent, delivered and failed, with the reason when something goes wrong.",
            "Message history: a searchable record of what was sent, to whom and with what result.",
            "Contacts and groups: keep recipients in the platform instead of passing full lists with every call.",
            "Encoding and segment counting: the API tells you how many segments, and therefore credits, a text will use.",
            "API keys you can regenerate when a key may have leaked.",
          ],
        },
      ],
    },
    {
      id: "benefits",
      heading: "What it brings to the business",
      blocks: [
        "Automation is the first benefit. Once the integration exists, confirmations, reminders and alerts go out without anybody copying numbers into a phone. Messages are sent the moment the triggering event happens, which is exactly when they are most useful.",
        "Scale comes next. A queue-based gateway can take thousands of messages in a burst and feed them to the network at the rate the carriers accept, so your application never has to pace itself.",
        "Costs stay predictable. With prepaid credits, where one credit pays for one segment, you know what each message costs before you send it and you can never overspend. And because every message has a status, the results are measurable: delivery rates, failures by reason, and replies.",
      ],
    },
    {
      id: "implementation-plan",
      heading: "An implementation plan",
      blocks: [
        {
          list: [
            "List your use cases and write the messages first. Knowing the wording tells you the segment count and the cost per send.",
            "Create an API key and keep it on your server. Never put it in a mobile app or in JavaScript that runs in the browser, where anyone can read it.",
            "Normalise phone numbers to E.164 (+ country code + number) when you collect them, and validate them there, so a typo is caught while the customer is still on the page.",
            "Send through a single function in your code that calls the API, logs the returned message id and records it against your own order, booking or user.",
            "Handle errors by type. Validation errors (a bad number, an empty message) need fixing, not retrying. Temporary errors (timeouts, rate limits, server errors) can be retried with exponential backoff.",
            "Follow the outcome: read delivery statuses from the message history or receive them on a webhook, and surface failures where someone will act on them.",
            "Handle opt-outs. Anyone who replies STOP must not receive further marketing messages; keep that list in one place.",
            "Test with a few internal numbers, then roll out gradually while watching delivery rates.",
          ],
          ordered: true,
        },
      ],
    },
    {
      id: "pitfalls",
      heading: "Common pitfalls",
      blocks: [
        "Sending the same message twice is the classic integration bug: a request times out, the code retries, and the first attempt had in fact succeeded. Record the message id you get back, and only retry requests that clearly failed.",
        "Unexpected characters are the classic cost bug. A curly quote pasted from a word processor or a single emoji switches the whole message to UCS-2, cutting the capacity of a segment from 160 characters to 70. Check the segment counter before you send a large campaign.",
        "Finally, time zones. A reminder scheduled for 9:00 must be 9:00 where the customer lives. Store times in UTC and convert with the customer's time zone when you schedule.",
      ],
    },
    {
      id: "next-steps",
      heading: "Next steps",
      blocks: [
        "Start small: one transactional message that saves your team time, such as an appointment reminder or an order update. Measure it, then add the next. Our article on [how SMS APIs work](/blog/sms-api-services-how-they-work) explains the path a message takes once you press send.",
      ],
    },
  ],
};
