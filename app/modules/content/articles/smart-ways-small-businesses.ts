import type { Article } from "#app/modules/content/articles/article.ts";

export const article: Article = {
  slug: "smart-ways-small-businesses",
  title: "Smart Ways Small Businesses Use SMS",
  description:
    "Order updates, reminders, reviews, waitlists and staff coordination: practical, low-cost ways for small businesses to use text messages, and how to start in a day.",
  sections: [
    {
      id: "why-small-businesses",
      heading: "Why SMS suits small teams",
      blocks: [
        "A small business does not have time to build an app or run complex campaigns. SMS needs neither. Customers already have the messaging app, setup takes minutes, and with prepaid credits you pay only for what you send. A handful of well-chosen messages can save hours of phone calls each week and bring customers back more often.",
      ],
    },
    {
      id: "ideas",
      heading: "Ideas that pay for themselves",
      blocks: [
        {
          list: [
            "Order ready: 'Your order is ready for pickup' beats a customer waiting at the counter or calling to ask.",
            "Appointment reminders: for salons, garages, tutors, trainers and clinics, a reminder the day before cuts no-shows.",
            "Waitlist: 'Your table is ready' lets guests wait nearby instead of crowding the door.",
            "Delivery windows: tell customers when to expect you, and when you are running late.",
            "Review requests: a polite thank-you with a review link a day after the visit.",
            "Offers for subscribers: a quiet Tuesday? Send a same-day offer to customers who opted in.",
            "Loyalty: let regulars know their reward is waiting.",
            "Payment reminders: a friendly nudge with a link to pay an open invoice.",
            "Staff shifts: offer an open shift to your team, or confirm tomorrow's rota.",
          ],
        },
      ],
    },
    {
      id: "costs",
      heading: "Keep costs predictable",
      blocks: [
        "Texts are billed per segment. A message of up to 160 plain characters is one segment; add an emoji or a curly quote and the limit drops to 70, so the same text may cost two or three credits. Write short, use plain punctuation, and check the segment counter before sending to a group. Buying credits in larger packages usually lowers the price per message.",
      ],
    },
    {
      id: "start-in-a-day",
      heading: "Get started in a day",
      blocks: [
        {
          list: [
            "Create an account and buy a small credit package.",
            "Add your contacts and sort them into groups (customers, VIP, staff), with their consent to receive texts.",
            "Send yourself a test message and check how it looks on your phone.",
            "Send your first real message to one group, or schedule it for a good time tomorrow morning.",
            "Check the message history to see what was delivered and fix any wrong numbers.",
            "When you are ready, connect your booking or shop software through the API so messages go out automatically.",
          ],
          ordered: true,
        },
      ],
    },
    {
      id: "dos-and-donts",
      heading: "Do's and don'ts",
      blocks: [
        {
          list: [
            "Do text only people who agreed, and keep a note of when and how they did.",
            "Do start each message with your business name.",
            "Do include 'Reply STOP to opt out' in promotional messages, and honour it.",
            "Do send marketing between 8 AM and 9 PM in the customer's time zone.",
            "Don't send more often than you promised.",
            "Don't put private details (health, finances, passwords) in a text.",
          ],
        },
        "Start with one message that solves a daily annoyance, such as 'your order is ready'. Once you see the calls drop and the customers smile, add the next.",
      ],
    },
  ],
};
