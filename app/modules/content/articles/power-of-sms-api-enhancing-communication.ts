import type { Article } from "#app/modules/content/articles/article.ts";

export const article: Article = {
  slug: "power-of-sms-api-enhancing-communication",
  title: "The Power of SMS API: Enhancing Communication",
  description:
    "Notifications, one-time codes, alerts, two-way service and internal messaging: how an SMS API makes a business easier to reach and quicker to respond.",
  sections: [
    {
      id: "beyond-marketing",
      heading: "Beyond marketing",
      blocks: [
        "Most of the texts people value are not promotions. They are the message that a parcel is at the door, that a payment went through, that a flight has changed gate. An SMS API lets any system that knows about such an event tell the person concerned in seconds, in a form they will see.",
      ],
    },
    {
      id: "notifications",
      heading: "Transactional notifications",
      blocks: [
        {
          list: [
            "Orders: confirmation, dispatch, out for delivery, ready for pickup.",
            "Payments: receipts, failed card payments, upcoming renewals.",
            "Accounts: a new login from an unknown device, a changed password or email address.",
            "Bookings: confirmations, reminders and changes.",
          ],
        },
        "These messages reduce 'where is my order?' calls and emails, and they build trust because they arrive when something actually happens. Keep them factual, include a reference the customer recognises, and link to the details rather than cramming them into the text.",
      ],
    },
    {
      id: "one-time-codes",
      heading: "One-time codes, used wisely",
      blocks: [
        "SMS one-time passcodes are a familiar second step at login and checkout, and they work on any phone. They are not the strongest option: codes can be intercepted through SIM-swap fraud or phishing, and NIST's digital identity guidelines class SMS as a 'restricted' authenticator. Offer authenticator apps or passkeys to users who want them, and keep SMS as a widely available option or fallback.",
        "When you do send codes, keep them short-lived, limit attempts, rate-limit the sending endpoint, and use the origin-bound format that lets browsers and phones fill the code in automatically and only on your site:",
        {
          code: `Your Example login code is 482913. It expires in 10 minutes.

@example.com #482913`,
        },
      ],
    },
    {
      id: "alerts",
      heading: "Operational alerts",
      blocks: [
        "Monitoring systems text the on-call engineer when a service goes down; facilities teams alert staff to a closure; schools and councils warn about weather. For these messages, reliability beats everything else: use delivery receipts to see who received the alert, and escalate to a second person or a phone call when an important message is not delivered within a few minutes.",
      ],
    },
    {
      id: "two-way-service",
      heading: "Two-way customer service",
      blocks: [
        "Many customers would rather text than wait on hold. With a number that receives replies, your support team can answer simple questions by SMS, send a link to a form or a photo upload, and follow up when a case is solved. Incoming messages arrive through the API like any other event, so they can open a ticket in your helpdesk automatically.",
        "Say clearly when replies are monitored, and answer the ones that arrive. A reply sent to a number nobody reads damages trust more than having no text channel at all.",
      ],
    },
    {
      id: "internal",
      heading: "Reaching your own team",
      blocks: [
        "Not every employee sits at a computer. Drivers, nurses, warehouse staff and field technicians carry phones but rarely check email during a shift. SMS reaches them with shift offers, schedule changes, safety notices and urgent requests. Groups in your SMS platform (one per site, team or shift) make it quick to reach exactly the right people.",
      ],
    },
    {
      id: "integration",
      heading: "Connected to the systems you already use",
      blocks: [
        "The real power of an API is that it connects messaging to your data. An e-commerce platform sends order updates, a CRM triggers follow-ups, a booking tool schedules reminders, a helpdesk turns replies into tickets. Each integration is usually a handful of lines of code around a single HTTP call, plus a webhook for delivery receipts and replies.",
      ],
    },
    {
      id: "good-messages",
      heading: "What makes a message helpful",
      blocks: [
        {
          list: [
            "It says who it is from.",
            "It is relevant to this person, right now.",
            "It tells them what, if anything, to do next.",
            "It fits on a phone screen without scrolling, ideally in a single segment.",
            "It keeps sensitive details out of the text and behind a login.",
          ],
        },
        "Messages that meet that bar make your business feel responsive, which is the whole point of communicating.",
      ],
    },
  ],
};
