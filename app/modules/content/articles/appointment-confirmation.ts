import type { Article } from "#app/modules/content/articles/article.ts";

export const article: Article = {
  slug: "appointment-confirmation",
  title: "Appointment Confirmation by SMS",
  description:
    "Confirmations, reminders and simple replies: how to design an SMS appointment flow that reduces no-shows, with templates and scheduling tips.",
  sections: [
    {
      id: "why-confirm",
      heading: "Why confirm by text",
      blocks: [
        "Every missed appointment is an empty slot that could have gone to someone else. Most no-shows are not deliberate: people forget, mix up the day, or cannot get through by phone to cancel. A well-timed text fixes all three. It reminds, it states the date and time plainly, and it gives an easy way to confirm or change the booking.",
        "Clinics, salons, garages, tutors, consultants and public services all use the same pattern, and businesses that introduce it commonly report fewer missed appointments and more slots refilled from cancellations.",
      ],
    },
    {
      id: "the-flow",
      heading: "A proven flow",
      blocks: [
        {
          list: [
            "Booking confirmation, sent immediately: what, when, where, and how to change it.",
            "Reminder 24 to 48 hours before: enough time to reschedule and for you to offer the slot to someone else.",
            "Optional same-day reminder, about two hours before, for appointments that are easy to forget.",
            "Follow-up afterwards, if useful: a thank-you, aftercare instructions or a link to book the next visit.",
          ],
          ordered: true,
        },
        "Two or three messages per booking is plenty. More starts to feel like nagging.",
      ],
    },
    {
      id: "templates",
      heading: "Templates",
      blocks: [
        {
          code: `Riverside Dental: your appointment is booked for Tue 14 May at 09:30.
To change it call 555-0100 or visit riverside.example/manage`,
        },
        {
          code: `Riverside Dental: reminder of your appointment tomorrow, Tue 14 May at
09:30. Reply C to confirm or R to reschedule.`,
        },
        {
          code: `Thanks, your appointment on Tue 14 May at 09:30 is confirmed.
See you then!`,
        },
        "Write dates unambiguously (weekday, day and month, not 05/14), use the 12- or 24-hour clock your customers expect, and keep each message within one segment if you can.",
      ],
    },
    {
      id: "replies",
      heading: "Handling replies",
      blocks: [
        "Two-way confirmation turns a reminder into data. Keep the choices simple (C to confirm, R to reschedule) and accept reasonable variations such as 'yes', 'ok' or 'confirm'. Anything the system cannot understand should go to a person, not into silence.",
        "When someone replies R, either send a link to rebook online or have a staff member call. Release the original slot as soon as the new one is fixed, and offer it to your waiting list. STOP must still work in this conversation: a customer who opts out of reminders should get a confirmation and no further automated texts.",
      ],
    },
    {
      id: "time-zones",
      heading: "Get the time right",
      blocks: [
        "Store appointment times in UTC together with the customer's time zone, and convert when you write the message and when you schedule it. Daylight saving changes are where naive systems go wrong: a reminder scheduled 'at 9:00 every Monday' must still arrive at 9:00 local time after the clocks change. Send reminders at a sensible local hour, never before 8 AM or after 9 PM.",
      ],
    },
    {
      id: "scheduling",
      heading: "Scheduling with an SMS API",
      blocks: [
        "An SMS platform that supports scheduled sends makes this easy: when a booking is made, send the confirmation at once and schedule the reminders for the right times. When the booking moves or is cancelled, cancel the scheduled reminders too; a reminder for an appointment that no longer exists causes exactly the confusion you were trying to avoid. Keep the id of each scheduled message with the booking for that purpose.",
      ],
    },
    {
      id: "privacy",
      heading: "Keep it discreet",
      blocks: [
        "Texts show up on lock screens and shared devices. Include only what the customer needs to recognise the appointment: the business name, date, time and place. Leave out the reason for the visit, especially in healthcare, legal or financial services. Our article on [enhancing patient care](/blog/enhancing-patient-care) covers the extra care that medical practices need.",
      ],
    },
    {
      id: "measure",
      heading: "Measure the result",
      blocks: [
        "Track the confirmation rate, the share of reschedules that happen before the day rather than as no-shows, and the no-show rate itself. Compare a few weeks before and after, adjust the timing of reminders, and you will quickly find the rhythm that suits your customers.",
      ],
    },
  ],
};
