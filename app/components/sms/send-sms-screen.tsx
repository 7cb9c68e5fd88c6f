import type { SubmissionResult } from "@conform-to/react";
import type { ReactNode } from "react";
import { href, useLocation } from "react-router";
import type { SmsFormConfig } from "#app/modules/messaging/schemas.ts";
import type { DestinationPrice } from "#app/modules/pricing/price-list.ts";
import { ButtonLink } from "#app/components/ui/button.tsx";
import { PageHeader } from "#app/components/ui/page.tsx";
import { VerifyEmailFirst } from "#app/components/account/verify-email-first.tsx";
import { VERIFY_BEFORE } from "#app/modules/accounts/verify-first.ts";
import { SendSmsForm, SendSmsHowTo } from "#app/components/sms/send-sms-form.tsx";
import type { SenderChoice } from "#app/components/sms/from-field.tsx";
import { TemplatePicker, type TemplateStart } from "#app/components/templates/template-picker.tsx";

/** The spec's "Send SMS / Documentation" screen: documentation link, the form, the how-to list. */
export function SendSmsScreen({
  title,
  config,
  senders,
  lastResult,
  mustVerifyEmail = false,
  template = null,
  prices,
  children,
}: {
  /** The price list by destination, for the counter's cost. */
  prices: readonly DestinationPrice[];
  /** "Start from a template": the account's templates and the one chosen (`?template=ID`). */
  template?: TemplateStart | null;
  title: string;
  config: SmsFormConfig;
  senders: SenderChoice[];
  lastResult: SubmissionResult<string[]> | null | undefined;
  /** The account's e-mail must be verified before it sends: say so above the form. */
  mustVerifyEmail?: boolean;
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
      {mustVerifyEmail ? <VerifyEmailFirst before={VERIFY_BEFORE.sending} className="mb-6" /> : null}
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="space-y-4">
          {template ? (
            <TemplatePicker formId="send-sms" templates={template.templates} selected={template.templateId} />
          ) : null}
          <SendSmsForm
            key={location.key}
            config={config}
            senders={senders}
            lastResult={lastResult}
            message={template?.templateBody}
            prices={prices}
          />
        </div>
        <SendSmsHowTo config={config} />
      </div>
      {children}
    </div>
  );
}
