import type { Article } from "#app/modules/content/articles/article.ts";

export const article: Article = {
  slug: "promoting-business-with-sms-api-marketing",
  title: "Promoting Your Business with SMS API Marketing",
  description:
    "How to plan, write, time and measure SMS marketing campaigns that customers welcome, and how an SMS API automates them.",
  sections: [
    {
      id: "start-with-permission",
      heading: "Start with permission",
      blocks: [
        "Every successful SMS marketing programme starts with a list of people who asked to hear from you. Texting numbers bought from a list broker or scraped from the web is illegal in many places, gets your sender blocked by carriers, and annoys the very customers you want to win.",
        "Good ways to grow a list include a checkbox on your checkout or sign-up form (unticked by default), a keyword that people text to your number (for example JOIN), and a sign-up at the counter. Tell people what they will receive and how often, and how to stop. Keep a record of every opt-in.",
      ],
    },
    {
      id: "campaign-ideas",
      heading: "Campaigns that work",
      blocks: [
        {
          list: [
            "Welcome message: confirm the subscription, say what to expect and, if you like, include a first-order offer.",
            "Time-limited offers: flash sales and last-chance reminders suit a channel that is read quickly.",
            "Launches and restocks: tell subscribers first when a product arrives or is back in stock.",
            "Events: invitations, reminders the day before, and practical details on the day.",
            "Win-back: a friendly note to customers who have not bought in a while.",
            "Loyalty: points balances, member-only early access, birthday offers.",
          ],
        },
      ],
    },
    {
      id: "writing",
      heading: "Writing messages people act on",
      blocks: [
        "Start with your business name so the reader knows who is texting. Make one point and one call to action. Keep to a single segment when you can: 160 plain GSM-7 characters, or 70 if the text contains an emoji or other characters outside that alphabet.",
        "Use links on your own domain rather than public link shorteners, which carriers often filter because spammers use them. End marketing texts with opt-out instructions.",
        {
          code: `Bloom & Co: Spring sale starts now. 20% off all plants until Sunday.
Shop: https://bloomco.example/spring
Reply STOP to opt out`,
        },
      ],
    },
    {
      id: "timing",
      heading: "Timing and frequency",
      blocks: [
        "Respect quiet hours: do not send marketing texts before 8 AM or after 9 PM in the recipient's local time. US telemarketing rules set that window, some US states set narrower ones, and it is simply good manners everywhere. For a national list, schedule by time zone rather than sending everything at once.",
        "Within those hours, test. Lunchtime and early evening often work for consumer offers, mid-morning on weekdays for business customers, but your audience will tell you through its clicks. Frequency matters as much: if you promised about four messages a month, send about four. Opt-outs rise quickly when people feel spammed.",
      ],
    },
    {
      id: "segmentation",
      heading: "Segmentation and personalisation",
      blocks: [
        "One message to everyone is the easiest campaign and rarely the best. Group contacts by what you know (location, past purchases, interests, how recently they bought) and send each group the offer that fits. Even a first name and a reference to the last purchase make a message feel written for the reader rather than broadcast.",
        "An SMS API makes this practical: your shop or CRM chooses the recipients and the wording, and the API sends each message and reports its status.",
      ],
    },
    {
      id: "automation",
      heading: "Automate with the API",
      blocks: [
        "The best-performing marketing texts are often triggered, not scheduled: an abandoned-cart nudge an hour after the visit, a review request two days after delivery, a reorder reminder when a product usually runs out. Each is an event in your system that calls the API with a short, relevant message. Scheduled campaigns complement them for seasonal offers and announcements.",
      ],
    },
    {
      id: "measure",
      heading: "Measure what matters",
      blocks: [
        {
          list: [
            "Delivery rate: the share of messages that reached phones. A drop points to bad numbers or carrier filtering.",
            "Click-through: use tagged links to see who visited.",
            "Conversions and revenue per message: the real measure of a campaign.",
            "Opt-out rate per campaign: your early warning that content or frequency is off.",
          ],
        },
        "Compare campaigns against each other, keep what works and drop what does not. Treat every subscriber's attention as something you have to keep earning.",
      ],
    },
  ],
};
