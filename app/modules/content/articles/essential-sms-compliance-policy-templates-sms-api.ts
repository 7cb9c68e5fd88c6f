import type { Article } from "#app/modules/content/articles/article.ts";

export const article: Article = {
  slug: "essential-sms-compliance-policy-templates-sms-api",
  title: "Essential SMS Compliance: Policy Templates for Your SMS API",
  description:
    "Consent, opt-out keywords, quiet hours and record keeping under the TCPA, CTIA guidance and the GDPR, with message and policy templates you can adapt.",
  sections: [
    {
      id: "why-it-matters",
      heading: "Why compliance matters",
      blocks: [
        {
          note: "This article is general information, not legal advice. Rules differ by country and change over time; check your own programme with a qualified adviser.",
        },
        "Text messaging is one of the most regulated marketing channels. In the United States, the Telephone Consumer Protection Act (TCPA) allows people to sue for unwanted texts, with statutory damages per message, and several states have their own laws on top. In Europe, the GDPR and the ePrivacy rules govern consent and personal data. Mobile carriers add their own requirements and filter traffic that breaks them.",
        "The good news is that the rules point in the same direction: text people who agreed, tell them who you are, let them stop easily, respect their time, and be able to prove all of it.",
      ],
    },
    {
      id: "consent",
      heading: "Consent comes first",
      blocks: [
        "Under US rules, marketing texts generally require the recipient's prior express written consent, which can be given electronically, for example by ticking a box or texting a keyword. Transactional messages the person requested, such as an order update, need less formal consent, but the safest practice is to collect clear consent for each type of message you send.",
        "The CTIA Messaging Principles and Best Practices, the industry guidance US carriers apply, expect the sign-up point to disclose:",
        {
          list: [
            "the programme name or a description of the messages;",
            "how often messages are sent;",
            "that message and data rates may apply;",
            "how to get help (HELP) and how to opt out (STOP);",
            "a link to your terms and privacy policy.",
          ],
        },
        "Under the GDPR, consent must be freely given, specific, informed and unambiguous, and you must be able to demonstrate it. A pre-ticked box is not consent. In the UK and much of the EU, a soft opt-in lets you text existing customers about similar products, provided they were given a chance to refuse when they bought and in every message since.",
      ],
    },
    {
      id: "opt-out",
      heading: "Opt-out must be easy and immediate",
      blocks: [
        "Honour STOP and its common variants: STOP, STOPALL, UNSUBSCRIBE, CANCEL, END and QUIT. Reply once to confirm the opt-out, and then send nothing more to that number from that programme. US rules also treat other reasonable ways of saying no (a reply such as 'please stop texting me', an email, a call) as a valid revocation, to be honoured within a short deadline; the best practice is to act on it immediately.",
        "HELP (and INFO) should return a short message with your business name, what the programme is and how to reach you.",
        "Keep one suppression list across every tool that sends texts, so a customer who opted out in one system is not texted by another.",
      ],
    },
    {
      id: "quiet-hours",
      heading: "Quiet hours",
      blocks: [
        "US telemarketing rules forbid solicitations before 8 AM or after 9 PM in the recipient's local time, and some states set a narrower window. Outside the US, similar expectations apply even where they are not written into law. Schedule marketing texts by the recipient's time zone, not your own. Urgent transactional messages (a security alert, a same-day change to an appointment) are a different case, but keep them genuinely urgent.",
      ],
    },
    {
      id: "records",
      heading: "Keep records",
      blocks: [
        "If a complaint arrives, your records are your defence. For every subscriber, keep the phone number, the date and time of consent, the method (web form, keyword, paper form), the exact wording they agreed to, and the source details such as the page or keyword. Keep opt-out records too.",
        "A common rule of thumb is to retain consent records for at least 24 months. Many US advisers recommend longer, because TCPA claims can be brought up to four years after a message was sent. Under the GDPR, keep the records for as long as you rely on the consent, and delete personal data you no longer need.",
      ],
    },
    {
      id: "registration",
      heading: "Register your sender",
      blocks: [
        "Carriers increasingly require application-to-person traffic to be registered. In the United States, messages from ordinary 10-digit numbers need A2P 10DLC registration: your brand and each campaign, with sample messages and a description of how people opt in, are registered through The Campaign Registry. Toll-free numbers need their own verification, and short codes have always been vetted. Unregistered traffic is filtered or blocked. Other countries, such as India and Singapore, run sender id registries of their own.",
      ],
    },
    {
      id: "templates",
      heading: "Templates you can adapt",
      blocks: [
        "Sign-up disclosure, next to the phone number field:",
        {
          code: `By checking this box, I agree to receive recurring marketing text messages
from Bloom & Co at the number provided. Consent is not a condition of
purchase. Msg frequency varies (about 4/month). Msg & data rates may apply.
Reply HELP for help, STOP to cancel. Terms: https://bloomco.example/terms
Privacy: https://bloomco.example/privacy`,
        },
        "Opt-in confirmation (the first message):",
        {
          code: `Bloom & Co: You're subscribed to offers & news, about 4 msgs/month.
Msg & data rates may apply. Reply HELP for help, STOP to cancel.`,
        },
        "HELP response:",
        {
          code: `Bloom & Co offers. Help: help@bloomco.example or +1 555 010 0100.
Msg & data rates may apply. Reply STOP to cancel.`,
        },
        "STOP confirmation (the last message):",
        {
          code: `Bloom & Co: You're unsubscribed and will receive no further messages.
Reply START to resubscribe.`,
        },
        "Privacy policy clause:",
        {
          code: `Text messaging. If you opt in to text messages, we use your mobile number
to send the messages you asked for. We do not sell or share your mobile
number or opt-in consent with third parties for their marketing. You can
opt out at any time by replying STOP. We keep a record of your consent and
opt-out for at least 24 months.`,
        },
        "Adapt the wording to your programme, keep the disclosures visible rather than hidden in small print, and review them whenever you change what you send.",
      ],
    },
  ],
};
