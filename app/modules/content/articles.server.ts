import { type Article, GUIDE_PATH, type QuickLink } from "#app/modules/content/articles/article.ts";
import { article as appointmentConfirmation } from "#app/modules/content/articles/appointment-confirmation.ts";
import { article as emergingTrends } from "#app/modules/content/articles/emerging-trends-forecasts.ts";
import { article as patientCare } from "#app/modules/content/articles/enhancing-patient-care.ts";
import { article as compliance } from "#app/modules/content/articles/essential-sms-compliance-policy-templates-sms-api.ts";
import { article as hiringSmarter } from "#app/modules/content/articles/hiring-smarter.ts";
import { article as engagingLeads } from "#app/modules/content/articles/powerful-tactics-engaging-leads-sms-marketing.ts";
import { article as enhancingCommunication } from "#app/modules/content/articles/power-of-sms-api-enhancing-communication.ts";
import { article as promoting } from "#app/modules/content/articles/promoting-business-with-sms-api-marketing.ts";
import { article as featuresBenefits } from "#app/modules/content/articles/sms-api-features-benefits-implementation.ts";
import { article as bestPractices } from "#app/modules/content/articles/sms-api-how-it-works-best-practices.ts";
import { article as howTheyWork } from "#app/modules/content/articles/sms-api-services-how-they-work.ts";
import { article as smallBusinesses } from "#app/modules/content/articles/smart-ways-small-businesses.ts";
import { guide } from "#app/modules/content/articles/ultimate-guide.ts";
import { article as whySms } from "#app/modules/content/articles/why-still-important-to-send-sms.ts";

/** The blog articles under /blog/{slug}, in the spec's order. */
export const articles: Article[] = [
  howTheyWork,
  whySms,
  featuresBenefits,
  promoting,
  compliance,
  bestPractices,
  engagingLeads,
  enhancingCommunication,
  hiringSmarter,
  appointmentConfirmation,
  emergingTrends,
  patientCare,
  smallBusinesses,
];

const bySlug = new Map(articles.map((a) => [a.slug, a]));

/** Slugs match whatever their letter case (the old sidebar links to appointment-Confirmation). */
export function findArticle(slug: string): Article | undefined {
  return bySlug.get(slug.toLowerCase());
}

export const articlePath = (article: Article) => `/blog/${article.slug}`;

/** The sidebar: the guide and every article, once each. */
export const quickLinks: QuickLink[] = [
  { href: GUIDE_PATH, title: guide.title },
  ...articles.map((a) => ({ href: articlePath(a), title: a.title })),
];
