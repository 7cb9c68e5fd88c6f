import type { Article } from "#app/modules/content/articles/article.ts";

export const article: Article = {
  slug: "why-still-important-to-send-sms",
  title: "Why It Is Still Important to Send SMS",
  description:
    "Messaging apps come and go, but plain SMS still reaches almost every phone. Here is why text messages remain a dependable business channel, and where they fit best.",
  sections: [
    {
      id: "the-universal-channel",
      heading: "The one channel every phone has",
      blocks: [
        "Every mobile phone in use today can receive a text message. It does not need a smartphone, an app, an account, a data plan or a Wi-Fi connection. A customer who has never installed your app, who has switched off push notifications, or who is travelling with mobile data turned off can still read your text.",
        "No other channel offers that reach without conditions. Email needs an inbox the person checks; push notifications need your app and the person's permission; chat apps need the person to use the same app as you, and their popularity differs from country to country. SMS is the common denominator underneath all of them.",
      ],
    },
    {
      id: "attention",
      heading: "Messages that get read",
      blocks: [
        "Industry sources commonly report that around 98% of text messages are opened and that most are read within 3 minutes of arriving. Treat those figures as directional rather than precise (they come from marketing surveys, not a standard measurement), but they match everyday experience: a text arrives on the lock screen, makes a sound, and is short enough to read at a glance.",
        "Compare that with an email that lands in a promotions tab or a spam folder, or a notification buried among dozens of others. For messages where timing matters, that attention is the main reason to use SMS.",
      ],
    },
    {
      id: "time-sensitive",
      heading: "Built for the time-sensitive",
      blocks: [
        "SMS shines when a message is short, useful and needed now:",
        {
          list: [
            "Appointment confirmations and reminders that prevent no-shows.",
            "Order, delivery and pickup updates.",
            "Security alerts and one-time passcodes.",
            "Service outages, weather warnings and changes of plan.",
            "Shift offers and schedule changes for staff who are not at a desk.",
          ],
        },
        "In each case the value of the message drops quickly with time. A reminder read tomorrow is worthless; a text read within minutes does its job.",
      ],
    },
    {
      id: "trust",
      heading: "Trust and simplicity",
      blocks: [
        "People associate texts with things that matter to them personally: a code to log in, a message from the doctor's office, a note that a parcel has arrived. That trust is an asset, and it is also a responsibility. Carriers and regulators increasingly require businesses to register who they are and what they send, which keeps the channel clean and makes legitimate messages more credible.",
        "SMS is also simple to implement. One HTTP request to an SMS API sends a message anywhere in the world, and delivery receipts tell you whether it arrived. There is no app to build or approve, and no design work beyond choosing your words.",
      ],
    },
    {
      id: "where-it-fits",
      heading: "Where SMS fits, and where it does not",
      blocks: [
        "SMS is not the right tool for everything. Long newsletters, detailed invoices and rich media belong in email or a web page; a text can link to them. Conversations that need images, buttons or read receipts may suit RCS or a chat app where the customer already uses one, with SMS as the fallback.",
        "The strongest setups combine channels: email for detail, push for engaged app users, and SMS for the messages that must not be missed. A text that says your order is ready, with a link for the details, often does more than a long email.",
      ],
    },
    {
      id: "use-it-well",
      heading: "Use it well and it keeps working",
      blocks: [
        "The attention SMS enjoys depends on businesses not abusing it. A few habits protect it:",
        {
          list: [
            "Text only people who agreed to hear from you, and honour STOP replies straight away.",
            "Keep marketing texts within quiet hours: not before 8 AM or after 9 PM in the recipient's local time.",
            "Say who you are in every message and keep it short and useful.",
            "Send less, but send what matters.",
          ],
        },
        "Follow those rules and SMS remains what it has been for decades: the most direct way to reach a customer's pocket.",
      ],
    },
  ],
};
