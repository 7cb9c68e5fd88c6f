// Browser-safe: the admin's upstream and route forms.
import { z } from "zod";
import { UPSTREAM_KINDS } from "#app/db/enums.ts";
import { MAX_ROUTE_UPSTREAMS, parseCostMicros, parsePrefix } from "#app/modules/routing/routing.ts";

const wholeNumber = (name: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${name} is required` })
    .int(`${name} is a whole number`)
    .min(min, `${name} is ${min} to ${max}`)
    .max(max, `${name} is ${min} to ${max}`);

const optionalText = (max: number, message: string) => z.string().trim().max(max, message).optional();

/** Create (no id) or edit (id) an upstream; the password left empty keeps the stored one. */
export const UpstreamFormSchema = z.object({
  intent: z.enum(["create", "update"]),
  id: z.coerce.number().int().positive().optional(),
  name: z
    .string({ error: "Name is required" })
    .trim()
    .min(1, "Name is required")
    .max(40, "Keep the name to 40 characters"),
  kind: z.enum(UPSTREAM_KINDS, { error: "Choose a kind" }),
  url: optionalText(200, "The address is too long").refine(
    (url) => url === undefined || /^s?smpp:\/\/[^/@\s]+:\d{1,5}$/.test(url),
    "Write it as smpp://host:port (or ssmpp:// for TLS), without the system id and password",
  ),
  systemId: optionalText(16, "SMPP allows 16 characters for a system id"),
  password: optionalText(9, "SMPP allows 9 characters for a password"),
  binds: wholeNumber("Binds", 1, 32),
  window: wholeNumber("Window", 1, 1000),
  tps: wholeNumber("TPS", 0, 10_000),
  sourceAddr: optionalText(20, "Keep the source address to 20 characters"),
  enabled: z.literal("on").optional(),
});

const slot = z
  .object({
    upstream: z.string().optional(),
    weight: z.coerce
      .number("A weight is a whole number")
      .int("A weight is a whole number")
      .min(1, "A weight is 1 to 1000")
      .max(1000, "A weight is 1 to 1000")
      .optional(),
    cost: z
      .string()
      .optional()
      .transform((cost, ctx) => {
        if (cost === undefined) return 0;
        const micros = parseCostMicros(cost);
        if (micros === null)
          ctx.addIssue({ code: "custom", message: "A cost is an amount like 0.0042 (up to six decimals)" });
        return micros ?? 0;
      }),
  })
  .superRefine((value, ctx) => {
    if (!value.upstream && (value.weight !== undefined || value.cost > 0))
      ctx.addIssue({ code: "custom", path: ["upstream"], message: "Choose the upstream this weight or cost is for" });
  });

/** Create (no id) or edit (id) a route: its prefix and up to MAX_ROUTE_UPSTREAMS upstreams in order. */
export const RouteFormSchema = z.object({
  intent: z.literal("save"),
  id: z.coerce.number().int().positive().optional(),
  prefix: z.string({ error: "The prefix is required" }).transform((prefix, ctx) => {
    const parsed = parsePrefix(prefix);
    if (parsed === null)
      ctx.addIssue({
        code: "custom",
        message: "Write the start of an E.164 number (e.g. +44 or +447700), or * for every other destination",
      });
    return parsed ?? "";
  }),
  slots: z
    .array(slot)
    .max(MAX_ROUTE_UPSTREAMS)
    .default([])
    .refine((slots) => slots.some((s) => s.upstream), "Choose at least one upstream"),
});
