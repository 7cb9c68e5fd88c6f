import type { Article } from "#app/modules/content/articles/article.ts";

export const article: Article = {
  slug: "sms-api-services-how-they-work",
  title: "SMS API Services: How They Work",
  description:
    "Follow one text message from your application's HTTP request through the gateway, SMPP and the carrier to the handset, and back as a delivery receipt.",
  sections: [
    {
      id: "what-an-sms-api-is",
      heading: "What an SMS API is",
      blocks: [
        "An SMS API is a web interface that lets your software send and receive text messages without owning any telecom equipment. Your application speaks ordinary HTTPS and JSON; the SMS provider speaks the protocols of the mobile networks. Everything in between (routing, encoding, retries, status tracking) is the provider's job.",
        "That split is what makes SMS easy to add to a web shop, a booking system or a monitoring tool: a developer who can call any REST endpoint can send a text in an afternoon. Knowing what happens behind that endpoint, though, helps you read delivery statuses correctly, keep costs predictable and design for the cases where a message is late or never arrives.",
      ],
    },
    {
      id: "journey-of-a-message",
      heading: "The journey of one message",
      blocks: [
        {
          list: [
            "Your application sends an HTTPS request with the recipient's number in international E.164 format (for example +14155550123), the message text and your API key.",
            "The gateway authenticates the key, validates the number, works out the encoding and the number of segments, checks that your account can pay for them, stores the message and answers at once with a message id. The message is now queued; the HTTP call does not wait for the phone.",
            "A background worker takes the message from the queue and submits it to a Short Message Service Centre (SMSC), usually through an aggregator, over the SMPP protocol. It asks for a delivery receipt.",
            "The SMSC routes the message into the recipient's mobile network. If the phone is off or out of coverage, the network stores the message and retries until its validity period runs out.",
            "When the handset confirms receipt, the network sends a delivery receipt back along the same path. The gateway matches it to your message, updates the status and, if you configured one, calls your webhook.",
          ],
          ordered: true,
        },
        "Every hop is asynchronous. That is why a good SMS API answers quickly with an id and lets you follow the status afterwards, instead of keeping your request open for seconds.",
      ],
    },
    {
      id: "why-smpp",
      heading: "Why SMPP sits in the middle",
      blocks: [
        "SMPP (Short Message Peer-to-Peer) is the long-standing industry protocol between messaging applications and SMSCs. Unlike HTTP, it keeps a persistent TCP session, called a bind, open. A gateway binds as a transmitter, a receiver or both (a transceiver), sends submit_sm packets for outgoing messages and receives deliver_sm packets for incoming messages and receipts.",
        "Because the session stays open and several requests can be in flight at once (a window), SMPP moves high volumes efficiently. The price is complexity: binds drop and must be re-established, windows must be respected, and the SMSC assigns its own message id in its submit_sm_resp answer, which the gateway has to remember in order to match the delivery receipt that arrives later. An SMS API hides all of this behind one HTTP call.",
      ],
    },
    {
      id: "delivery-receipts",
      heading: "Delivery receipts and what the statuses mean",
      blocks: [
        "A delivery receipt (often called a DLR) is the network's report on a message. Gateways translate the carriers' codes into a small set of statuses, typically:",
        {
          list: [
            "Queued: accepted by the gateway, not yet handed to the network.",
            "Sent: accepted by the SMSC; the network now has it.",
            "Delivered: the handset confirmed receipt.",
            "Undelivered or failed: the network gave up, for example because the number does not exist or the phone has been unreachable for too long.",
            "Expired: the validity period ended before the phone could be reached.",
            "Rejected: refused before delivery, for example by a carrier's content filter or because the number is barred.",
          ],
        },
        "Two caveats are worth remembering. Delivered means the phone received the message, not that a person read it. And receipt quality varies: some networks report reliably within seconds, some late, and a few only partially. Treat receipts as strong signals rather than legal proof.",
      ],
    },
    {
      id: "encoding-and-cost",
      heading: "Encoding, segments and cost",
      blocks: [
        "A single SMS carries 160 characters of the GSM-7 alphabet, or 70 characters when the text needs UCS-2 (any character outside GSM-7, such as most emoji or non-Latin scripts). Longer texts are split into segments of 153 or 67 characters that the phone joins back together. Providers charge per segment, which is why the same sentence can cost one credit or three. Our [best practices article](/blog/sms-api-how-it-works-best-practices) explains how to keep messages in a single segment.",
      ],
    },
    {
      id: "sender-ids",
      heading: "Who the message comes from",
      blocks: [
        "The sender shown on the phone depends on the route and the country: a regular long number (which can receive replies), a short code for high-volume programmes, a toll-free number in North America, or an alphanumeric sender id such as your brand name (one-way, and not allowed in every country; the United States, for instance, does not support them). Many countries now require senders to be registered before they can send application-to-person traffic.",
      ],
    },
    {
      id: "example-request",
      heading: "What a request looks like",
      blocks: [
        "Every provider has its own paths and field names, but a send request usually looks like this:",
        {
          code: `POST https://api.example.com/v1/messages
Authorization: Bearer YOUR_API_KEY
Content-Type: application/json

{ "to": "+14155550123", "message": "Your order #1042 has shipped." }

HTTP/1.1 202 Accepted
{ "id": "msg_7Hq2", "status": "queued", "segments": 1 }`,
        },
        "The answer tells you the message was accepted, how many segments it will use and which id to follow. The status then moves on as receipts come in.",
      ],
    },
    {
      id: "choosing",
      heading: "What to look for in a provider",
      blocks: [
        {
          list: [
            "Clear per-segment pricing, with the segment count shown before you send.",
            "Delivery receipts exposed as statuses you can read in a message history and through the API.",
            "A queue that retries temporary failures, so a short network problem does not lose a message.",
            "Scheduling, contact groups and opt-out handling, so you do not rebuild them yourself.",
            "Readable API documentation and keys you can rotate.",
          ],
        },
        "With those pieces in place, an SMS API becomes one more dependable building block in your stack rather than a black box.",
      ],
    },
  ],
};
