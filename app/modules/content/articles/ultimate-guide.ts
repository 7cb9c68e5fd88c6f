import type { Article } from "#app/modules/content/articles/article.ts";

/** The long guide served at /sms/blog, with a table of contents of in-page anchors. */
export const guide: Article = {
  slug: "the-ultimate-guide-to-sms-api-services",
  title: "The Ultimate Guide to SMS API Services",
  description:
    "Everything you need to know about SMS APIs in one place: how messages travel, encoding and segments, delivery receipts, sender types, compliance, best practices and choosing a provider.",
  sections: [
    {
      id: "what-is-an-sms-api",
      heading: "What is an SMS API?",
      blocks: [
        "An SMS API (application programming interface) lets software send and receive text messages over the internet. Instead of a phone or a modem, your application makes an HTTPS request to an SMS gateway, and the gateway takes care of getting the message onto the mobile networks. The same interface reports back what happened to each message and, with the right number, passes on the replies.",
        "SMS APIs power a large share of the texts people receive every day: login codes, delivery updates, appointment reminders, bank alerts and, with the recipient's consent, promotions. They are popular because SMS reaches every mobile phone without an app, and because an API turns sending a text into a single line of code in almost any programming language.",
        "This guide explains what happens behind that line of code and how to use it well. Each section stands on its own, so jump to whatever you need from the contents above.",
      ],
    },
    {
      id: "how-it-works",
      heading: "How an SMS API works",
      blocks: [
        "A message passes through several systems on its way to the handset:",
        {
          list: [
            "Your application calls the API over HTTPS with the recipient's number in E.164 format (such as +14155550123), the text and your API key.",
            "The gateway authenticates you, validates the number, counts the segments, checks your balance, stores the message and puts it in a queue. It replies straight away with a message id.",
            "A worker takes the message from the queue and submits it to a Short Message Service Centre (SMSC), typically through an aggregator, over SMPP, the industry's standard protocol for this link.",
            "The SMSC delivers the message through the recipient's mobile network to the handset, storing it and retrying if the phone is switched off, until its validity period ends.",
            "The network reports the outcome with a delivery receipt. The gateway updates the message's status and can notify your application through a webhook.",
          ],
          ordered: true,
        },
        "The key point is that sending is asynchronous. The API accepts the message in milliseconds, but delivery depends on networks and phones and can take seconds, or hours if the phone is off. Design your application to record the message id and follow the status, rather than wait for the phone. Our article [SMS API Services: How They Work](/blog/sms-api-services-how-they-work) walks through each step in more detail.",
      ],
    },
    {
      id: "encoding-and-segments",
      heading: "Encoding, segments and what a message costs",
      blocks: [
        "A text message has a fixed payload of 140 bytes. How many characters fit depends on the encoding:",
        {
          list: [
            "GSM-7, the default alphabet of Latin letters, digits and common symbols: 160 characters in a single message.",
            "UCS-2, used as soon as the text contains any character outside GSM-7 (most emoji, non-Latin scripts, many accented letters, curly quotes): 70 characters.",
          ],
        },
        "Longer texts are sent as several segments that the phone stitches back together. Each segment carries a small header, leaving 153 GSM-7 or 67 UCS-2 characters per segment. Providers bill per segment, so a 150-character plain message fits in one segment, while the same message with one emoji added needs three.",
        "A few GSM-7 characters, such as the euro sign, square and curly brackets, the tilde and the backslash, count twice because they come from an extension table. A good SMS platform counts characters, encoding and segments live while you type, and shows the cost before you send. On our gateway, one credit pays for one segment.",
      ],
    },
    {
      id: "sender-types",
      heading: "Sender types: long codes, short codes, toll-free and sender ids",
      blocks: [
        {
          list: [
            "Long codes are ordinary mobile or landline numbers. They can send and receive, which makes them ideal for conversations. In the US, business traffic on 10-digit long codes requires A2P 10DLC registration.",
            "Short codes are 5- or 6-digit numbers leased for high-volume programmes. They are vetted by the carriers, take weeks to set up and offer the highest throughput.",
            "Toll-free numbers (in the US and Canada) support business texting after a verification step and suit customer-service traffic.",
            "Alphanumeric sender ids show a brand name such as 'BloomCo' instead of a number. They are one-way and are not supported in every country; the United States does not allow them, and several countries require them to be registered.",
          ],
        },
        "Which sender you need depends on your countries, your volume and whether recipients should be able to reply.",
      ],
    },
    {
      id: "delivery-receipts",
      heading: "Delivery receipts and message statuses",
      blocks: [
        "Delivery receipts report what the network did with each message. Gateways map the many carrier codes to a few statuses: queued (accepted by the gateway), sent (accepted by the network), delivered (received by the handset), and failed, undelivered, expired or rejected, ideally with the reason.",
        "Use them. They tell you which numbers are wrong, whether a carrier is filtering your content, and whether an urgent alert actually arrived. Remember their limits: delivered means received, not read, and some networks report late or incompletely. A message history that shows every status with its time is the first place to look when a customer says 'I never got it'.",
      ],
    },
    {
      id: "use-cases",
      heading: "What businesses use SMS APIs for",
      blocks: [
        {
          list: [
            "Notifications: order confirmations, shipping updates, payment receipts, account alerts.",
            "Reminders: appointments, payments due, renewals. See [Appointment Confirmation by SMS](/blog/appointment-confirmation).",
            "Authentication: one-time codes for login and account recovery.",
            "Marketing: offers and announcements to subscribers who opted in. See [Promoting Your Business with SMS API Marketing](/blog/promoting-business-with-sms-api-marketing).",
            "Conversations: lead follow-up, customer service and surveys by two-way text.",
            "Internal communication: shift offers, emergency notices and alerts for staff away from a desk.",
            "Sector-specific flows in healthcare, recruitment, logistics, education and hospitality.",
          ],
        },
        "Industry sources commonly cite open rates around 98% for text messages, with most read within 3 minutes. The exact figures vary by study, but the direction is consistent: texts get seen, which is why these use cases work.",
      ],
    },
    {
      id: "compliance",
      heading: "Compliance: consent, opt-out, quiet hours and records",
      blocks: [
        "Texting is regulated, and carriers enforce their own rules on top of the law. The essentials:",
        {
          list: [
            "Consent: get clear permission before sending marketing texts. In the US, the TCPA generally requires prior express written consent for marketing messages; in Europe, the GDPR and ePrivacy rules require consent that is freely given, specific, informed and unambiguous.",
            "Disclosures: at sign-up, say what you will send, how often, that message and data rates may apply, and how to get help or stop, as the CTIA guidance expects.",
            "Opt-out: honour STOP and its variants (STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT) at once, confirm once, and send nothing more.",
            "Quiet hours: no marketing texts before 8 AM or after 9 PM in the recipient's local time; some places set stricter limits.",
            "Records: keep proof of each consent and opt-out, for at least 24 months as a rule of thumb, and longer where your legal advice says so.",
            "Registration: register your brand and campaigns where carriers require it, such as A2P 10DLC in the US.",
          ],
        },
        "Our [compliance guide with policy templates](/blog/essential-sms-compliance-policy-templates-sms-api) covers each point in depth. It is general information, not legal advice.",
      ],
    },
    {
      id: "best-practices",
      heading: "Best practices for developers",
      blocks: [
        {
          list: [
            "Keep API keys on the server and regenerate them if they may have leaked.",
            "Store numbers in E.164 and validate them where they are entered.",
            "Watch the segment count: avoid accidental UCS-2 characters in templates.",
            "Retry only temporary failures, with exponential backoff, and never send the same message twice.",
            "Queue large sends rather than looping inside a web request.",
            "Follow delivery receipts and alert on drops in the delivery rate.",
            "Rate-limit public forms that trigger texts to prevent SMS pumping fraud.",
            "Keep sensitive data out of message bodies; link to a page behind a login.",
          ],
        },
        "[SMS API: How It Works and Best Practices](/blog/sms-api-how-it-works-best-practices) explains the reasoning behind each one.",
      ],
    },
    {
      id: "choosing-a-provider",
      heading: "Choosing an SMS API provider",
      blocks: [
        "Compare providers on what affects you day to day:",
        {
          list: [
            "Coverage and routes for the countries you send to, and help with sender registration there.",
            "Transparent pricing per segment, with no surprises for long or Unicode messages.",
            "Delivery receipts, message history and clear error reasons.",
            "Reliability: queued sending with retries, and a status page or history you can check.",
            "Features you would otherwise build: scheduling, contacts and groups, opt-out handling, two-way messaging.",
            "Documentation, test tools and support you can reach when something goes wrong.",
            "Data protection: where data is stored, how long, and the agreements you need (for example a DPA, or a BAA in US healthcare).",
          ],
        },
      ],
    },
    {
      id: "getting-started",
      heading: "Getting started with our gateway",
      blocks: [
        {
          list: [
            "Register for a free account and buy a credit package; one credit sends one SMS segment.",
            "Send a test message from the Send SMS screen and watch its status in your message history.",
            "Add contacts and groups to send to several people at once, or schedule messages once or on a repeating basis.",
            "Open the API Token page to get your API key, and read the API documentation to send from your own software.",
            "Questions? Use the Support form when signed in, or the contact page at any time.",
          ],
          ordered: true,
        },
      ],
    },
    {
      id: "faq",
      heading: "Frequently asked questions",
      blocks: [
        "How long can a message be? Longer than 160 characters: the text is split into segments and reassembled on the phone. Each segment is billed, so shorter is cheaper.",
        "Why did my message cost more than expected? Usually because a character outside GSM-7, such as an emoji or a curly quote, switched it to UCS-2, or because it just crossed a segment boundary.",
        "Does 'delivered' mean the person read it? No. It means the handset received the message. SMS has no read receipts; RCS and chat apps do.",
        "Can people reply? Yes, if you send from a number that can receive messages. Alphanumeric sender ids are one-way.",
        "What happens if the phone is off? The network stores the message and retries until the validity period ends; the status then becomes delivered or expired.",
        "Do I need consent for transactional messages? You need a lawful basis and, in practice, the customer's agreement to receive texts about their order or appointment. Marketing needs explicit consent. When in doubt, ask.",
      ],
    },
  ],
};
