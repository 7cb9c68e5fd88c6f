import type { Article } from "#app/modules/content/articles/article.ts";

export const article: Article = {
  slug: "powerful-tactics-engaging-leads-sms-marketing",
  title: "Powerful Tactics for Engaging Leads with SMS Marketing",
  description:
    "Reply fast, ask good questions and hand over to a person at the right moment: practical SMS tactics for turning enquiries into customers.",
  sections: [
    {
      id: "speed-to-lead",
      heading: "Reply while the interest is fresh",
      blocks: [
        "A lead is never warmer than in the minutes after they fill in your form. By the time a salesperson calls back the next day, the prospect may have found another supplier or forgotten what they asked about. An automatic text sent within a minute of the enquiry, from a number that can receive replies, keeps the conversation going while you prepare a proper answer.",
        {
          code: `Hi Sam, thanks for asking about office plants at Bloom & Co.
Jo from our team will call you today. Any day/time that suits best?`,
        },
        "That first message confirms the enquiry arrived, sets an expectation and invites a reply, which is far more useful to the salesperson than a silent form submission.",
      ],
    },
    {
      id: "earn-the-opt-in",
      heading: "Earn the opt-in",
      blocks: [
        "Ask for permission to text where you collect the number: a clear checkbox on the enquiry form, or a keyword in your ads ('Text QUOTE to ...'). Say what you will send. Leads who chose to hear from you by text reply more and complain less, and the consent record protects you later. Our [compliance guide](/blog/essential-sms-compliance-policy-templates-sms-api) has wording you can adapt.",
      ],
    },
    {
      id: "two-way",
      heading: "Have a conversation, not a broadcast",
      blocks: [
        "The most engaging texts ask something simple: a preferred time, a budget range, the size of the team. One question per message, answerable in a word or two. Route replies to a real inbox or CRM where someone sees them quickly; nothing cools a lead faster than a reply that disappears.",
        "Keep automated follow-ups polite and limited. If a lead has not replied after two or three messages spread over a week or so, switch to email or pause.",
      ],
    },
    {
      id: "nurture",
      heading: "Nurture with value",
      blocks: [
        "Not every lead is ready to buy. A short nurture sequence keeps you in mind without pressure:",
        {
          list: [
            "Day 0: thanks and next step.",
            "Day 2: a useful resource (a buying guide, a case study, a price list link).",
            "Day 7: an invitation to book a short call, with a scheduling link.",
            "Day 21: a last check-in, and an easy way to say 'not now'.",
          ],
        },
        "Stop the sequence the moment the lead books, buys or opts out. An SMS API triggered from your CRM makes that automatic.",
      ],
    },
    {
      id: "personalise",
      heading: "Personalise and segment",
      blocks: [
        "Use what the lead told you: their name, the product they asked about, their city. Segment by interest and by stage (new enquiry, quoted, trial, lapsed) and write for each. A message that mentions the exact service someone requested feels like help; a generic promotion feels like an advertisement.",
      ],
    },
    {
      id: "cta",
      heading: "One clear call to action",
      blocks: [
        "Each text should ask for one thing: reply with a time, tap to book, call back. Links should go to a mobile-friendly page on your own domain that completes the action in a few taps. If the page needs a login or a long form, the text has wasted its attention.",
      ],
    },
    {
      id: "timing",
      heading: "Timing and tone",
      blocks: [
        "Send within business hours and never before 8 AM or after 9 PM in the lead's time zone. Write as a person from your company would, sign with a name where you can, and keep it short. Capital letters, several exclamation marks and pressure tactics lower reply rates and can trigger carrier spam filters.",
      ],
    },
    {
      id: "measure",
      heading: "Measure and improve",
      blocks: [
        "Track reply rate, time to first response, meetings booked and, ultimately, deals won per lead source. Watch the opt-out rate of each sequence: a spike means a message missed the mark. Small changes, such as the first question you ask or the hour you send, often make the biggest difference, so test them one at a time.",
      ],
    },
  ],
};
