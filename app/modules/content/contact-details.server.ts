import { getEnv } from "../../utils/env.server.ts";

export type ContactDetails = { address: string; phone: string; supportEmail: string; salesEmail: string };

/** The operator's published contact block (CONTACT_* settings). */
export function getContactDetails(): ContactDetails {
  return {
    address: getEnv().CONTACT_ADDRESS,
    phone: getEnv().CONTACT_PHONE,
    supportEmail: getEnv().CONTACT_SUPPORT_EMAIL,
    salesEmail: getEnv().CONTACT_SALES_EMAIL,
  };
}
