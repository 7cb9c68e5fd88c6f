import { data, href } from "react-router";
import { LinkRefused } from "#app/components/account/link-refused.tsx";
import { ResendVerificationButton } from "#app/components/account/resend-verification.tsx";
import { verifyEmail } from "#app/modules/accounts/verification.server.ts";
import { getSessionUser } from "#app/modules/auth/session.server.ts";
import { redirectWithToast } from "#app/web/toast.server.ts";
import type { Route } from "./+types/verify-email";

export const meta: Route.MetaFunction = () => [
  { title: "Verify E-mail | SMS Gateway" },
  { name: "robots", content: "noindex" },
];

// Opening the link is the verification, so it works from any mail program, signed in or not.
export async function loader({ request, params }: Route.LoaderArgs) {
  const result = await verifyEmail(params.token);
  const signedIn = (await getSessionUser(request)) !== null;
  if (!result.ok) return data({ refusal: result.error, signedIn }, { status: 410 });
  return redirectWithToast(signedIn ? href("/sms/sendSms") : href("/login"), {
    description: "Your e-mail address is verified. You can send SMS now.",
  });
}

export default function VerifyEmail({ loaderData }: Route.ComponentProps) {
  return (
    <LinkRefused title="Verify E-mail" refusal={loaderData.refusal}>
      {loaderData.signedIn ? <ResendVerificationButton redirectTo={href("/sms/sendSms")} /> : null}
    </LinkRefused>
  );
}
