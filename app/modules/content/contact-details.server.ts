import { getEnv } from "#app/utils/env.server.ts";

export type ContactDetails = { address: string; phone: string; supportEmail: string; salesEmail: string };

/** The operator's published contact block (CONTACT_* settings). */
export function getContactDetails(): ContactDetails {
  const env = getEnv();
  return {
    address: env.CONTACT_ADDRESS,
    phone: env.CONTACT_PHONE,
    supportEmail: env.CONTACT_SUPPORT_EMAIL,
    salesEmail: env.CONTACT_SALES_EMAIL,
  };
}
