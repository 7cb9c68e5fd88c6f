import { ContactDetailsList } from "#app/components/content/contact-details.tsx";
import { Sections } from "#app/components/content/rich-text.tsx";
import { PageHeader } from "#app/components/ui/page.tsx";
import { getContactDetails } from "#app/modules/content/contact-details.server.ts";
import { TERMS_EFFECTIVE_DATE, termsSections } from "#app/modules/content/terms.ts";
import type { Route } from "./+types/terms";

export const meta: Route.MetaFunction = () => [
  { title: "Terms and Conditions | SMS Gateway" },
  {
    name: "description",
    content: "The terms and conditions for using the SMS Gateway service, its API and credit packages.",
  },
];

export function loader() {
  return { details: getContactDetails() };
}

export default function Terms({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title="Terms and Conditions" />
      <p className="text-sm text-slate-600">
        Effective date: <time dateTime={TERMS_EFFECTIVE_DATE}>{TERMS_EFFECTIVE_DATE}</time>
      </p>
      <Sections sections={termsSections} />
      <div className="mt-6 rounded-lg bg-white p-6 ring-1 ring-slate-200">
        <ContactDetailsList details={loaderData.details} />
      </div>
    </div>
  );
}
