import type { ContactDetails } from "#app/modules/content/contact-details.server.ts";

function Item({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{term}</dt>
      <dd className="mt-1 text-sm break-words text-slate-800">{children}</dd>
    </div>
  );
}

/** Postal address, phone, support and sales e-mail, as configured by the operator. */
export function ContactDetailsList({ details }: { details: ContactDetails }) {
  return (
    <dl className="space-y-4">
      <Item term="Postal address">
        <address className="not-italic">{details.address}</address>
      </Item>
      <Item term="Phone">
        <a href={`tel:${details.phone.replace(/[^\d+]/g, "")}`}>{details.phone}</a>
      </Item>
      <Item term="Support e-mail">
        <a href={`mailto:${details.supportEmail}`}>{details.supportEmail}</a>
      </Item>
      <Item term="Sales e-mail">
        <a href={`mailto:${details.salesEmail}`}>{details.salesEmail}</a>
      </Item>
    </dl>
  );
}
