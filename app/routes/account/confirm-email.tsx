import { data, href, Link } from "react-router";
import { LinkRefused } from "#app/components/account/link-refused.tsx";
import { confirmEmailChange } from "#app/modules/accounts/settings.server.ts";
import { getSessionUser } from "#app/modules/auth/session.server.ts";
import { redirectWithToast } from "#app/web/toast.server.ts";
import type { Route } from "./+types/confirm-email";

export const meta: Route.MetaFunction = () => [
  { title: "Confirm E-mail | SMS Gateway" },
  { name: "robots", content: "noindex" },
];

// The link sent to the new address: opening it makes the change, signed in or not.
export async function loader({ request, params }: Route.LoaderArgs) {
  const result = await confirmEmailChange(params.token);
  if (!result.ok) return data({ refusal: result.error }, { status: 410 });
  const signedIn = (await getSessionUser(request)) !== null;
  return redirectWithToast(signedIn ? href("/account/settings") : href("/login"), {
    description: `Your e-mail address is now ${result.email}.`,
  });
}

export default function ConfirmEmail({ loaderData }: Route.ComponentProps) {
  return (
    <LinkRefused title="Confirm E-mail" refusal={loaderData.refusal}>
      <Link to={href("/account/settings")}>Go to Settings</Link>
    </LinkRefused>
  );
}
