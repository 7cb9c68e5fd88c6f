import type { Article } from "#app/modules/content/articles/article.ts";

export const article: Article = {
  slug: "sms-api-how-it-works-best-practices",
  title: "SMS API: How It Works and Best Practices",
  description:
    "Encoding and segments, E.164 numbers, retries without duplicates, delivery receipts and security: the technical habits that make an SMS integration reliable and affordable.",
  sections: [
    {
      id: "recap",
      heading: "A quick recap of the flow",
      blocks: [
        "Your code sends an HTTPS request; the gateway validates it, queues it and returns a message id; a worker submits the message over SMPP to a carrier's message centre; the network delivers it to the handset; a delivery receipt comes back and updates the status. The full story is in [SMS API Services: How They Work](/blog/sms-api-services-how-they-work). The practices below follow from that shape: the send is asynchronous, the network is out of your control, and every message has a cost.",
      ],
    },
    {
      id: "encoding",
      heading: "Know your encoding and your segments",
      blocks: [
        "SMS has two common encodings. GSM-7 covers the Latin letters, digits, common punctuation and a few accented letters; a single message holds 160 GSM-7 characters. Anything outside that alphabet (most emoji, Chinese, Arabic, Cyrillic and many accented characters) forces UCS-2, and a single message then holds only 70 characters.",
        "Longer messages are split into segments. Each segment gives up a few characters to a header that lets the phone reassemble the parts, so a multipart message carries 153 GSM-7 characters or 67 UCS-2 characters per segment. You pay per segment:",
        {
          list: [
            "160 GSM-7 characters: 1 segment. 161 characters: 2 segments.",
            "306 GSM-7 characters: 2 segments. 307: 3 segments.",
            "70 UCS-2 characters: 1 segment. 71: 2 segments.",
          ],
        },
        "Watch for hidden switches. One curly quote, a long dash pasted from a word processor or a single emoji turns a whole 150-character message into three UCS-2 segments. Some GSM-7 characters, such as €, [, ], {, }, ~, ^, | and the backslash, take two positions. Use a live segment counter before sending, and clean up pasted text in templates.",
      ],
    },
    {
      id: "numbers",
      heading: "Store numbers in E.164",
      blocks: [
        "Keep every number in E.164 format: a plus sign, the country code and the national number without spaces or leading zeros, such as +447700900123 for a UK mobile. Validate it where it is entered, so the person can correct a typo on the spot, and reject numbers that cannot be mobile numbers before you pay to send to them.",
      ],
    },
    {
      id: "retries",
      heading: "Retry safely and never send twice",
      blocks: [
        "Networks fail, and your request to the API may time out even when the message was accepted. Two rules avoid both lost and duplicate messages:",
        {
          list: [
            "Retry only what is retryable: timeouts, connection errors, HTTP 429 and 5xx answers. Validation errors such as an invalid number will fail the same way every time.",
            "Make retries idempotent: record the message id you got back, use the API's idempotency key if it has one, and check whether the first attempt succeeded before sending again.",
          ],
        },
        "Space retries with exponential backoff (for example 1, 2, 4, 8 seconds, with a cap) so that a struggling service gets room to recover.",
      ],
    },
    {
      id: "throughput",
      heading: "Queue large sends",
      blocks: [
        "Do not loop over ten thousand contacts in a web request. Hand the list to the gateway's group send or to your own background queue, and let it feed messages at the rate the API and the carriers accept. Respect the rate limits the API advertises; a burst that earns a wave of 429 answers only slows everything down.",
      ],
    },
    {
      id: "receipts",
      heading: "Use delivery receipts",
      blocks: [
        "A message id with no status is only half the picture. Read the delivery status from the message history or subscribe to receipts on a webhook. When you receive webhooks, verify that they come from your provider, answer quickly and do the work in the background, and expect duplicates and out-of-order arrivals: a late 'sent' must not overwrite 'delivered'.",
        "Look at failures by reason. A cluster of 'undelivered' for one country or carrier points to a routing or registration problem; a steady stream of invalid numbers points to your sign-up form.",
      ],
    },
    {
      id: "security",
      heading: "Protect your keys and your account",
      blocks: [
        {
          list: [
            "Keep API keys on the server, in environment variables or a secrets store, never in source control or client code.",
            "Regenerate a key at once if it may have leaked, and whenever someone who knew it leaves.",
            "If your public site triggers texts (sign-up codes, for example), rate-limit those endpoints by IP address and phone number. Fraudsters abuse open forms to send expensive traffic, a scheme known as SMS pumping.",
            "Keep personal and sensitive data out of message bodies; link to a page behind a login instead.",
          ],
        },
      ],
    },
    {
      id: "content",
      heading: "Content that gets delivered",
      blocks: [
        "Carriers filter messages that look like spam. Identify your business, avoid public link shorteners, avoid excessive capitals and symbols, and keep content consistent with what the recipient signed up for (and, in the US, with your registered campaign). Include opt-out instructions in marketing messages.",
      ],
    },
    {
      id: "monitor",
      heading: "Test and monitor",
      blocks: [
        "Test every template on real phones from the networks your customers use, including an older handset. In production, track delivery rate, time to delivery and error codes, and alert on sudden changes. A healthy SMS integration is one where a drop in delivery shows up on a dashboard before it shows up in customer complaints.",
      ],
    },
  ],
};
