import type { Article } from "#app/modules/content/articles/article.ts";

export const article: Article = {
  slug: "hiring-smarter",
  title: "Hiring Smarter with SMS",
  description:
    "Use text messages to schedule interviews, cut no-shows and keep candidates informed, with consent and fairness built in.",
  sections: [
    {
      id: "why-text-candidates",
      heading: "Why text candidates",
      blocks: [
        "Good candidates are busy, often still in a job, and hard to reach by phone during working hours. Emails from recruiters compete with everything else in the inbox. A short text can be read between meetings and answered in a few seconds, which makes it one of the quickest ways to move an application forward.",
        "Speed matters in hiring. When the process drags, strong candidates accept other offers. Texting removes days of back-and-forth from scheduling and keeps people engaged between steps.",
      ],
    },
    {
      id: "where-it-helps",
      heading: "Where SMS helps in the hiring process",
      blocks: [
        {
          list: [
            "Application received: a quick acknowledgement with what happens next.",
            "Interview scheduling: a link to pick a slot, instead of an email thread.",
            "Reminders: the day before and a couple of hours before the interview, with the address or video link.",
            "Directions on the day: parking, entrance, who to ask for.",
            "Status updates: moving to the next round, or a respectful 'not this time'.",
            "Offer follow-up: a nudge that the offer letter is in their inbox.",
            "Onboarding: first-day start time, what to bring, who will meet them.",
            "Shift and temp work: open shifts offered to a pool of workers, first to reply YES gets it.",
          ],
        },
      ],
    },
    {
      id: "consent",
      heading: "Ask first",
      blocks: [
        "Add a clear, optional checkbox to your application form: 'I agree to receive text messages about my application.' Record when and how consent was given, honour STOP replies at once, and do not move candidates into marketing or newsletter lists without a separate opt-in. Someone who applied for a job did not sign up for promotions.",
      ],
    },
    {
      id: "writing",
      heading: "Writing recruiting texts",
      blocks: [
        "Identify your company and, where possible, the recruiter by name; candidates are wary of job scams that arrive by text. Keep each message about one thing, and keep sensitive topics (salary negotiation, background checks, medical questions, rejection reasons) for a call or an email.",
        {
          code: `Hi Priya, it's Dan from Northwind Logistics. Thanks for applying for
Warehouse Supervisor. Pick an interview slot here:
https://careers.northwind.example/book/8KQ2`,
        },
        {
          code: `Reminder: your interview at Northwind Logistics is tomorrow at 10:00,
12 Harbour Road. Ask for Dan at reception. Reply R to reschedule.`,
        },
      ],
    },
    {
      id: "fairness",
      heading: "Fair and accessible",
      blocks: [
        "Texting should be an extra channel, not the only one. Offer email and phone too, make sure scheduling links work with screen readers, and do not let a fast reply by text give one candidate an advantage over another in a way you would not accept on other channels. Send during working hours in the candidate's time zone, never late at night.",
      ],
    },
    {
      id: "measure",
      heading: "Measure the effect",
      blocks: [
        "Compare time-to-schedule, interview no-show rate and offer acceptance before and after you add texting. Reminder messages in particular tend to show their value quickly in fewer empty interview slots. Use the delivery statuses from your SMS platform to spot wrong numbers early, before an important message goes missing.",
      ],
    },
  ],
};
