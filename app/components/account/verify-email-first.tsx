import { useLocation } from "react-router";
import { Notice } from "#app/components/ui/page.tsx";
import { ResendVerificationButton } from "#app/components/account/resend-verification.tsx";
import { VERIFY_BEFORE, verifyFirstNotice } from "#app/modules/accounts/verify-first.ts";

/** Shown in place of what an unverified account may not do yet, with the button that mails a new link. */
export function VerifyEmailFirst({
  before,
  className,
}: {
  before: (typeof VERIFY_BEFORE)[keyof typeof VERIFY_BEFORE];
  className?: string;
}) {
  const location = useLocation();
  return (
    <Notice tone="warning" className={className}>
      <p className="mb-2">{verifyFirstNotice(before)}</p>
      <ResendVerificationButton redirectTo={location.pathname} />
    </Notice>
  );
}
