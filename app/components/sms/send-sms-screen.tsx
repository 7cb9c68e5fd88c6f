import type { SubmissionResult } from "@conform-to/react";
import type { ReactNode } from "react";
import { href, useLocation } from "react-router";
import type { SmsFormConfig } from "#app/modules/sms/schemas.ts";
import { ButtonLink } from "#app/components/ui/button.tsx";
import { PageHeader } from "#app/components/ui/page.tsx";
import { SendSmsForm, SendSmsHowTo } from "#app/components/sms/send-sms-form.tsx";
import type { SenderChoice } from "#app/components/sms/from-field.tsx";

/** The spec's "Send SMS / Documentation" screen: documentation link, the form, the how-to list. */
export function SendSmsScreen({
  title,
  config,
  senders,
  lastResult,
  children,
}: {
  title: string;
  config: SmsFormConfig;
  senders: SenderChoice[];
  lastResult: SubmissionResult<string[]> | null | undefined;
  /** More below the form (the documentation screen's API reference). */
  children?: ReactNode;
}) {
  // A new location after a successful send remounts the form, so it comes back clean.
  const location = useLocation();
  return (
    <div>
      <PageHeader
        subtitle="SMS Gateway"
        title={title}
        actions={
          <ButtonLink to={href("/sms/documentation")} variant="ghost">
            API Documentation
          </ButtonLink>
        }
      />
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <SendSmsForm key={location.key} config={config} senders={senders} lastResult={lastResult} />
        <SendSmsHowTo config={config} />
      </div>
      {children}
    </div>
  );
}
