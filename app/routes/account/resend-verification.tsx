import { href, redirect } from "react-router";
import { requireUser } from "#app/routes/auth/guards.server.ts";
import { resendVerification } from "#app/modules/accounts/verification.server.ts";
import { safeRedirect } from "#app/utils/http.server.ts";
import { redirectWithToast } from "#app/web/toast.server.ts";
import type { Route } from "./+types/resend-verification";

// Only the resend button posts here; a visit goes to the settings, which show the same button.
export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request);
  return redirect(href("/account/settings"));
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const back = safeRedirect((await request.formData()).get("redirectTo"), href("/account/settings"));
  const result = await resendVerification(user.id);
  if (result.status === "limited") return redirectWithToast(back, { description: result.error, type: "error" });
  const description =
    result.status === "sent"
      ? `We have e-mailed a new verification link to ${user.email}.`
      : "Your e-mail address is already verified.";
  return redirectWithToast(back, { description });
}
