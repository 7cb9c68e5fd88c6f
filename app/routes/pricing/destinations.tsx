import { Form, href, Link } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { Field } from "#app/components/ui/field.tsx";
import { Card, PageHeader } from "#app/components/ui/page.tsx";
import { Table, Td, Th } from "#app/components/ui/table.tsx";
import { normalizePhone } from "#app/modules/messaging/phone.ts";
import {
  ANY_DESTINATION,
  creditsPerSegmentIn,
  DEFAULT_CREDITS_PER_SEGMENT,
  type DestinationPrice,
  prefixLabel,
  priceListOf,
} from "#app/modules/pricing/price-list.ts";
import { listPrices } from "#app/modules/pricing/prices.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { pluralize } from "#app/utils/misc.ts";
import type { Route } from "./+types/destinations";

export const meta: Route.MetaFunction = () => [
  { title: "Prices by destination | SMS Gateway" },
  { name: "description", content: "What one SMS segment costs, in credits, to each destination." },
];

/** The number a visitor asked about, priced; or why it is not a number. */
function priceOfNumber(
  input: string,
  prices: DestinationPrice[],
): { error: string } | { number: string; creditsPerSegment: number } {
  const phone = normalizePhone(input, getEnv().DEFAULT_COUNTRY);
  if (!phone.ok) return { error: phone.error };
  return { number: phone.e164, creditsPerSegment: creditsPerSegmentIn(priceListOf(prices), phone.e164) };
}

export async function loader({ request }: Route.LoaderArgs) {
  const prices = await listPrices();
  const number = new URL(request.url).searchParams.get("number")?.trim() ?? "";
  const otherwise = prices.find((price) => price.prefix === ANY_DESTINATION)?.creditsPerSegment;
  return {
    prices: prices.filter((price) => price.prefix !== ANY_DESTINATION),
    otherwise: otherwise ?? DEFAULT_CREDITS_PER_SEGMENT,
    number,
    answer: number ? priceOfNumber(number, prices) : null,
  };
}

export default function DestinationPrices({ loaderData }: Route.ComponentProps) {
  const { prices, otherwise, number, answer } = loaderData;
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <PageHeader title="Prices by destination" subtitle="SMS Gateway" />
      <p className="text-sm text-slate-700">
        Each SMS, or each part of a longer one, costs credits by where it goes: the longest prefix below that matches
        the number, else {pluralize(otherwise, "credit")} per segment. Credits are bought on the{" "}
        <Link to={href("/")}>pricing page</Link>.
      </p>
      <Card>
        <Form method="get" className="flex flex-wrap items-end gap-3">
          <Field
            className="min-w-56 flex-1"
            label="What does a number cost?"
            inputProps={{ name: "number", type: "tel", defaultValue: number, placeholder: "e.g. +44 7700 900123" }}
            errors={answer && "error" in answer ? [answer.error] : undefined}
          />
          <Button type="submit">Check</Button>
        </Form>
        {answer && "number" in answer ? (
          <p className="mt-3 text-sm font-medium text-slate-900" data-testid="number-price" aria-live="polite">
            {`A message to ${answer.number} costs ${pluralize(answer.creditsPerSegment, "credit")} per segment.`}
          </p>
        ) : null}
      </Card>
      {prices.length === 0 ? (
        <p className="rounded-lg bg-white p-8 text-center text-slate-600 shadow-sm ring-1 ring-slate-200">
          {`Every destination costs ${pluralize(otherwise, "credit")} per segment.`}
        </p>
      ) : (
        <Table>
          <caption className="sr-only">Credits per segment by destination prefix</caption>
          <thead>
            <tr>
              <Th>Numbers starting with</Th>
              <Th className="text-right">Credits per segment</Th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {prices.map((price) => (
              <tr key={price.prefix} data-testid="destination-price-row">
                <Td className="font-medium">{prefixLabel(price.prefix)}</Td>
                <Td className="text-right">{price.creditsPerSegment}</Td>
              </tr>
            ))}
            <tr data-testid="destination-price-row">
              <Td className="font-medium">{prefixLabel(ANY_DESTINATION)}</Td>
              <Td className="text-right">{otherwise}</Td>
            </tr>
          </tbody>
        </Table>
      )}
    </div>
  );
}
