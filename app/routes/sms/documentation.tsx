import { SendSmsScreen } from "../../components/sms/send-sms-screen.tsx";
import { requireUser } from "../../modules/auth/guards.server.ts";
import { sendSmsFormAction } from "../../modules/sms/send-form.server.ts";
import type { Route } from "./+types/documentation";

// The same screen as Send SMS for now; the REST API reference will live here.
export { loader } from "./send-sms.tsx";

export const meta: Route.MetaFunction = () => [{ title: "Documentation | SMS Gateway" }];

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  return sendSmsFormAction(request, user.id, "/sms/documentation");
}

export default function Documentation({ loaderData, actionData }: Route.ComponentProps) {
  return <SendSmsScreen title="Documentation" config={loaderData.config} lastResult={actionData} />;
}
