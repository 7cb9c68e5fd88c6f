import { randomBytes } from "node:crypto";
import { getEnv } from "#app/utils/env.server.ts";

export function createNonce(): string {
  return randomBytes(16).toString("base64");
}

type Directives = Record<string, string[]>;

/** Third-party origins the page may use, only when that feature is configured. */
function thirdPartySources(): Directives {
  const extra: Directives = {};
  const add = (directive: string, ...origins: string[]) =>
    (extra[directive] = [...(extra[directive] ?? []), ...origins]);
  if (getEnv().ANALYTICS_ID) {
    add("script-src", "https://www.googletagmanager.com");
    add("connect-src", "https://*.google-analytics.com", "https://*.analytics.google.com");
    add("img-src", "https://*.google-analytics.com");
  }
  // The env check at boot makes the three Stripe variables come together.
  if (getEnv().STRIPE_SECRET_KEY) {
    // Stripe.js and the Payment Element's frames (Stripe's CSP guide); Checkout is where the no-JavaScript form goes.
    add("script-src", "https://js.stripe.com", "https://*.js.stripe.com");
    add("frame-src", "https://js.stripe.com", "https://*.js.stripe.com", "https://hooks.stripe.com");
    add("connect-src", "https://api.stripe.com");
    add("form-action", "https://checkout.stripe.com");
  }
  return extra;
}

/** The enforced policy of every HTML page: scripts only from us or carrying this response's nonce. */
export function contentSecurityPolicy(nonce: string): string {
  const directives: Directives = {
    "default-src": ["'self'"],
    "script-src": ["'self'", `'nonce-${nonce}'`],
    // No 'unsafe-inline': the markup carries no style attributes (docs/decisions/007-content-security-policy.md).
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'"],
    "frame-src": ["'none'"],
    "frame-ancestors": ["'none'"],
    "form-action": ["'self'"],
    "base-uri": ["'none'"],
    "object-src": ["'none'"],
  };
  for (const [directive, origins] of Object.entries(thirdPartySources())) {
    directives[directive] = [...(directives[directive] ?? []).filter((s) => s !== "'none'"), ...origins];
  }
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(" ")}`)
    .join("; ");
}
