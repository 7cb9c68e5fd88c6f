import { href } from "react-router";
import { SendSmsScreen } from "#app/components/sms/send-sms-screen.tsx";
import { requireUser } from "#app/routes/auth/guards.server.ts";
import { smsFormConfig } from "#app/modules/sms/config.server.ts";
import { listPrices } from "#app/modules/pricing/prices.server.ts";
import { sendingSenders } from "#app/modules/senders/senders.server.ts";
import { mustVerifyEmail } from "#app/modules/accounts/verification.server.ts";
import { sendSmsFormAction } from "#app/routes/sms/forms/send-sms.server.ts";
import { templateStart } from "#app/routes/sms/forms/templates.server.ts";
import type { Route } from "./+types/send-sms";

export const meta: Route.MetaFunction = () => [{ title: "Send SMS | SMS Gateway" }];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  return {
    config: smsFormConfig(),
    prices: await listPrices(),
    senders: await sendingSenders(user.id),
    mustVerifyEmail: await mustVerifyEmail(user.id),
    template: await templateStart(request, user.id),
  };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  return sendSmsFormAction(request, user.id, href("/sms/sendSms"), user.timeZone);
}

export default function SendSms({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <SendSmsScreen
      prices={loaderData.prices}
      title="Send SMS"
      config={loaderData.config}
      senders={loaderData.senders}
      lastResult={actionData}
      mustVerifyEmail={loaderData.mustVerifyEmail}
      template={loaderData.template}
    />
  );
}
