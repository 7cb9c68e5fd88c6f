import { Form, href } from "react-router";
import { buttonClass } from "#app/components/ui/button.tsx";

/** Posts for a new verification link and comes back to `redirectTo`. */
export function ResendVerificationButton({ redirectTo }: { redirectTo: string }) {
  return (
    <Form method="post" action={href("/account/verify-email")}>
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <button type="submit" className={buttonClass({ variant: "secondary", size: "sm" })}>
        Resend verification e-mail
      </button>
    </Form>
  );
}
