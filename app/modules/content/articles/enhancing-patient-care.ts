import type { Article } from "#app/modules/content/articles/article.ts";

export const article: Article = {
  slug: "enhancing-patient-care",
  title: "Enhancing Patient Care with SMS",
  description:
    "Reminders, preparation instructions and follow-ups by text can improve attendance and patient experience, if protected health information stays out of the message.",
  sections: [
    {
      id: "why-sms-in-healthcare",
      heading: "Why texting helps patients",
      blocks: [
        "Patients juggle work, family and, often, several appointments with different providers. A short text at the right time helps them turn up prepared and on time, and gives them an easy way to tell you when they cannot. For practices, that means fewer empty slots and fewer phone calls; for patients, less stress and better continuity of care.",
        "SMS works for patients of every age and on every phone, including people without a smartphone or a patient-portal account.",
      ],
    },
    {
      id: "use-cases",
      heading: "Where texts make a difference",
      blocks: [
        {
          list: [
            "Appointment confirmations and reminders, with a simple reply to confirm or reschedule.",
            "Preparation notices: arrive 15 minutes early, bring your insurance card, follow the instructions you were given.",
            "Running-late and check-in messages, so patients wait in the car instead of a crowded room.",
            "Prescription ready for collection at the pharmacy.",
            "Recall reminders for routine check-ups, screenings and vaccinations.",
            "Post-visit follow-up: a link to aftercare information or a satisfaction survey.",
          ],
        },
      ],
    },
    {
      id: "hipaa",
      heading: "Protect health information",
      blocks: [
        {
          note: "This section is general guidance, not legal advice. Ask your compliance officer how the rules apply to your practice.",
        },
        "In the United States, HIPAA protects individually identifiable health information (PHI). Standard SMS is not end-to-end encrypted, messages appear on lock screens, and phones are shared or lost. The safe rule is simple: keep protected health information out of text messages.",
        {
          list: [
            "Do not include diagnoses, test results, medication names, procedure types or the name of a specialist department that reveals a condition.",
            "Use the practice name, date, time and place, nothing more. 'Your appointment at Riverside Health' is fine; 'your oncology follow-up' is not.",
            "Send anything clinical as a link to your secure patient portal, where the patient signs in.",
            "If a messaging vendor creates, receives or stores PHI on your behalf, you need a Business Associate Agreement (BAA) with it.",
            "Record each patient's consent and communication preferences, and honour requests to stop texting immediately.",
          ],
        },
        "Other countries have equivalent rules, such as the GDPR's special protection for health data in Europe. The same minimal-content approach works everywhere.",
      ],
    },
    {
      id: "templates",
      heading: "Minimal-content templates",
      blocks: [
        {
          code: `Riverside Health: reminder of your appointment on Thu 6 Jun at 14:15,
12 Mill Lane. Reply C to confirm or R to reschedule.`,
        },
        {
          code: `Riverside Health: your order is ready for collection at the pharmacy
desk, open 8:00-18:00.`,
        },
        {
          code: `Riverside Health: a message from your care team is waiting in the
patient portal: https://portal.riverside.example`,
        },
      ],
    },
    {
      id: "consent-and-access",
      heading: "Consent, languages and accessibility",
      blocks: [
        "Ask patients at registration whether they want text messages and at which number, and make it easy to change that later. Offer messages in the patient's preferred language. Note that non-Latin scripts need UCS-2 encoding, which fits 70 characters per SMS instead of 160, so translated templates may use more segments; plan for it in your budget. Keep language plain and avoid abbreviations that only staff understand.",
        "Time messages sensibly: reminders during the day, not before 8 AM or after 9 PM, unless the patient asked for an urgent notification.",
      ],
    },
    {
      id: "measure",
      heading: "Measure outcomes",
      blocks: [
        "Track attendance, late cancellations, confirmation replies and the number of inbound calls about appointments before and after introducing texts. Use delivery statuses to clean up wrong numbers in your records. Small changes, such as sending the reminder two days before rather than one, can make a measurable difference for your patient population.",
      ],
    },
  ],
};
