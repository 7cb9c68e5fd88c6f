import type { Article } from "#app/modules/content/articles/article.ts";

export const article: Article = {
  slug: "emerging-trends-forecasts",
  title: "Emerging Trends and Forecasts in SMS Messaging",
  description:
    "RCS, conversational messaging, A2P 10DLC and sender registration, fraud prevention and the future of one-time codes: what is changing in business texting.",
  sections: [
    {
      id: "introduction",
      heading: "A mature channel that keeps changing",
      blocks: [
        "SMS is more than thirty years old, yet business messaging is changing faster now than at any time since smartphones arrived. Richer formats, two-way conversations, stricter registration and new kinds of fraud are all reshaping how companies text their customers. Here are the trends worth planning for, and our reading of where they lead.",
      ],
    },
    {
      id: "rcs",
      heading: "RCS brings rich messaging to the default app",
      blocks: [
        "Rich Communication Services (RCS) upgrades the phone's built-in messaging app with features people know from chat apps: verified sender names and logos, images, carousels, suggested-reply buttons, typing indicators and read receipts. Android's messaging app has supported RCS for years, and Apple added RCS support in iOS 18 in 2024, which makes the format far more widely available.",
        "For businesses, RCS business messaging is offered through providers and requires sender verification; availability still depends on the carrier and the country. Because not every phone or network supports it, RCS campaigns are sent with SMS as the fallback. Expect RCS to grow for marketing and customer service where rich content matters, while SMS remains the universal baseline.",
      ],
    },
    {
      id: "conversational",
      heading: "From broadcasts to conversations",
      blocks: [
        "Businesses increasingly treat texting as a dialogue: customers reply to reschedule, ask a question or complete a purchase. AI assistants can now draft answers and handle routine questions, which makes two-way messaging affordable at scale. The winners will be the companies that use automation for speed and hand over to a person smoothly, and that are open about when a customer is talking to a bot.",
      ],
    },
    {
      id: "registration",
      heading: "Registration becomes the norm",
      blocks: [
        "Carriers and regulators have been closing the door on anonymous bulk traffic. In the United States, application-to-person messages sent from ordinary 10-digit numbers require A2P 10DLC registration of the brand and each campaign through The Campaign Registry, and toll-free senders must be verified. India requires registration of senders and message templates on its DLT platform, and Singapore operates a mandatory SMS Sender ID Registry.",
        "The direction is clear: more countries will ask who is sending and why, and unregistered traffic will be filtered. Build registration into your launch plan and keep your message content consistent with what you registered.",
      ],
    },
    {
      id: "fraud",
      heading: "Fighting fraud on both sides",
      blocks: [
        "Two kinds of fraud shape the industry. Smishing (phishing by text) erodes trust in all messages, which is one reason carriers filter more aggressively and verified senders matter more. SMS pumping, also called artificially inflated traffic, targets businesses: fraudsters trigger large numbers of one-time-code texts to premium-rate ranges and share the revenue.",
        "Expect more built-in protections from providers (rate limits, country allow-lists, anomaly detection) and more responsibility on businesses to guard every public form that sends a text.",
      ],
    },
    {
      id: "authentication",
      heading: "One-time codes share the stage",
      blocks: [
        "Passkeys and authenticator apps are steadily replacing SMS codes as the primary second factor for many services, because they resist phishing and SIM swapping. SMS will not disappear from authentication (it remains the method that works for everyone, and a common account-recovery route), but its share of login traffic is likely to decline while its role in notifications and conversations grows.",
      ],
    },
    {
      id: "privacy",
      heading: "Privacy and consent tighten",
      blocks: [
        "Consent rules keep getting more specific: in the US, regulators have made it easier for consumers to revoke consent by any reasonable means; in Europe, data-protection authorities continue to enforce the GDPR's consent standard. Businesses that keep clean consent records, honour opt-outs instantly and respect quiet hours (not before 8 AM or after 9 PM local time) will find the rules an advantage rather than a burden.",
      ],
    },
    {
      id: "forecast",
      heading: "Our forecast",
      blocks: [
        {
          list: [
            "SMS stays the universal fallback: every richer channel will still need it for people and phones it cannot reach.",
            "More traffic becomes two-way, with automated first answers and human follow-up.",
            "Sender registration and verification become a standard step everywhere, not just in a few markets.",
            "Pricing stays tied to what is delivered (segments for SMS, sessions or messages for rich channels), so clear per-message costs remain important.",
            "Fraud prevention becomes a feature buyers compare, like delivery rates today.",
          ],
        },
        "These are informed expectations, not certainties. The practical advice holds either way: collect consent, register your senders, protect your forms, measure delivery, and choose a platform that can grow with the channel.",
      ],
    },
  ],
};
