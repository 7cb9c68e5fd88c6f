import type { Section } from "#app/modules/content/articles/article.ts";

export const TERMS_EFFECTIVE_DATE = "2025-03-13";

/** The terms and conditions, in the spec's nine sections; the contact section's details come from configuration. */
export const termsSections: Section[] = [
  {
    id: "introduction",
    heading: "1. Introduction",
    blocks: [
      'These terms and conditions govern your use of this SMS gateway service, including the website, the control panel, the REST API and the credit packages sold through it (together, the "Services"). The Services are provided by the operator named in the contact section below ("we", "us").',
      "By registering an account, buying credits or using the Services in any other way, you accept these terms. If you use the Services on behalf of a company or other organisation, you confirm that you may accept them on its behalf. If you do not agree, please do not use the Services.",
    ],
  },
  {
    id: "use-of-services",
    heading: "2. Use of Services",
    blocks: [
      "You must be at least 18 years old to use the Services.",
      "You are responsible for the messages you send and for complying with every law and regulation that applies to them, including telecommunications, consumer protection, anti-spam, data protection and marketing rules in your country and in the recipients' countries. In particular, you must have the recipients' consent where the law requires it and must honour opt-out requests promptly.",
      "You must not use the Services to:",
      {
        list: [
          "send spam, unsolicited bulk messages or messages to recipients who have opted out;",
          "commit or facilitate fraud, phishing, impersonation or any other deceptive practice;",
          "send content that is illegal, threatening, harassing, defamatory, or that infringes the rights of others;",
          "distribute malware or links to it, or attempt to break into or disrupt the Services or any network;",
          "carry out any other illegal activity.",
        ],
      },
      "We may suspend or close an account, and withhold messages, when we reasonably believe it is being used in breach of these rules.",
    ],
  },
  {
    id: "account-registration",
    heading: "3. Account Registration",
    blocks: [
      "To use most of the Services you need an account. You agree to give accurate and complete information when you register and to keep it up to date.",
      "You are responsible for keeping your password and your API key confidential and for all activity under your account. Tell us without delay if you suspect that someone else has used your account or key; you can regenerate your API key at any time.",
    ],
  },
  {
    id: "message-delivery",
    heading: "4. Message Delivery",
    blocks: [
      "We pass your messages to mobile networks and delivery partners and report the delivery statuses we receive from them. Delivery depends on systems outside our control, such as the recipient's network, handset, coverage and any filtering by carriers.",
      "We therefore do not guarantee that any message will be delivered, or delivered within a particular time, and delivery statuses reflect what the networks report to us. Messages may also be delayed or refused where the law or a carrier's rules require, for example for unregistered senders or prohibited content.",
    ],
  },
  {
    id: "fees-and-payments",
    heading: "5. Fees and Payments",
    blocks: [
      "The Services are paid for in advance by buying credit packages at the prices shown at the time of purchase. Credits are used as messages are sent; the number of credits a message uses depends on its length and encoding, as shown before you send it.",
      "Payments are processed by our card payment provider. Credits are added to your account once the payment has been confirmed.",
      "All payments are non-refundable, except where a refund is required by applicable law.",
    ],
  },
  {
    id: "privacy",
    heading: "6. Privacy",
    blocks: [
      "We process personal data, such as your account details and the phone numbers and contents of the messages you send, only to provide, secure and improve the Services, to meet our legal obligations and as otherwise described to you.",
      "For the recipients' personal data that you upload or send through the Services, you are responsible for having a lawful basis for the processing. We do not sell personal data, and we keep message records only as long as needed for these purposes.",
    ],
  },
  {
    id: "limitation-of-liability",
    heading: "7. Limitation of Liability",
    blocks: [
      'The Services are provided "as is" and "as available". To the fullest extent permitted by law, we are not liable for any indirect, incidental or consequential loss, such as loss of profit, revenue, data or goodwill, arising from your use of or inability to use the Services, including any failure or delay in delivering messages.',
      "To the extent permitted by law, our total liability for any claim relating to the Services is limited to the amount you paid us for the Services in the twelve months before the event giving rise to the claim. Nothing in these terms limits liability that cannot be limited by law.",
    ],
  },
  {
    id: "changes",
    heading: "8. Changes to These Terms",
    blocks: [
      "We may update these terms from time to time, for example to reflect changes in the Services or the law. The effective date at the top of this page shows when they last changed. Where a change is significant, we will give notice on the website or by email before it takes effect. If you keep using the Services after the change takes effect, you accept the updated terms.",
    ],
  },
  {
    id: "contact",
    heading: "9. Contact Us",
    blocks: [
      "If you have any questions about these terms, please contact us using the details below or through the [contact form](/sms/contact).",
    ],
  },
];
