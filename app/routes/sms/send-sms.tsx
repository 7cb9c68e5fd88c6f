import { href } from "react-router";
import { SendSmsScreen } from "../../components/sms/send-sms-screen.tsx";
import { requireUser } from "../auth/guards.server.ts";
import { smsFormConfig } from "../../modules/sms/config.server.ts";
import { sendSmsFormAction } from "./forms/send-sms.server.ts";
import type { Route } from "./+types/send-sms";

export const meta: Route.MetaFunction = () => [{ title: "Send SMS | SMS Gateway" }];

export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request);
  return { config: smsFormConfig() };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  return sendSmsFormAction(request, user.id, href("/sms/sendSms"));
}

export default function SendSms({ loaderData, actionData }: Route.ComponentProps) {
  return <SendSmsScreen title="Send SMS" config={loaderData.config} lastResult={actionData} />;
}
