import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "#app/web/forms.ts";
import { data, Form, href, useLocation, useNavigation } from "react-router";
import { ContactDetailsList } from "#app/components/content/contact-details.tsx";
import { FormFailure, Honeypot, SubjectAndMessage } from "#app/components/content/support-fields.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Field } from "#app/components/ui/field.tsx";
import { Card, PageHeader } from "#app/components/ui/page.tsx";
import { getSessionUser } from "#app/modules/auth/session.server.ts";
import { getContactDetails } from "#app/modules/content/contact-details.server.ts";
import { submitSupportRequest } from "#app/modules/support/requests.server.ts";
import {
  ContactSchema,
  HONEYPOT_FIELD,
  SUPPORT_ERROR,
  SUPPORT_FAILURE,
  SUPPORT_SUCCESS,
} from "#app/modules/support/schemas.ts";
import { clientIp } from "#app/utils/http.server.ts";
import { redirectWithToast } from "#app/web/toast.server.ts";
import { unexpectedFormFailure } from "#app/web/unexpected-failure.server.ts";
import type { Route } from "./+types/contact";

export const meta: Route.MetaFunction = () => [
  { title: "Contact Us | SMS Gateway" },
  {
    name: "description",
    content: "Questions about SMS credits, the API or your account? Write to the SMS Gateway team.",
  },
];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await getSessionUser(request);
  return { details: getContactDetails(), sender: user ? { name: user.fullName, email: user.email } : null };
}

export async function action({ request }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: ContactSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const { [HONEYPOT_FIELD]: honeypot, ...fields } = submission.value;
  const user = await getSessionUser(request);
  let result;
  try {
    result = await submitSupportRequest(
      { source: "contact", userId: user?.id ?? null, ...fields, ip: clientIp(request) },
      honeypot,
    );
  } catch (error) {
    return unexpectedFormFailure(submission, SUPPORT_ERROR, error);
  }
  if (result.status === "limited") {
    return data(submission.reply({ formErrors: [SUPPORT_FAILURE, result.error] }), { status: 429 });
  }
  return redirectWithToast(href("/sms/contact"), { description: SUPPORT_SUCCESS });
}

type Sender = Route.ComponentProps["loaderData"]["sender"];

function ContactForm({ sender, lastResult }: { sender: Sender; lastResult: Route.ComponentProps["actionData"] }) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "contact",
    lastResult,
    defaultValue: { name: sender?.name ?? "", email: sender?.email ?? "" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ContactSchema }),
    // Errors clear while typing: clearing them on blur shifts the button away under the pointer mid-click.
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" className="relative space-y-4" {...getFormProps(form)} noValidate>
      <FormFailure id={form.errorId} errors={form.errors} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Name"
          inputProps={{ ...getInputProps(fields.name, { type: "text" }), autoComplete: "name", maxLength: 100 }}
          errors={fields.name.errors}
        />
        <Field
          label="Email"
          inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email" }}
          errors={fields.email.errors}
        />
      </div>
      <SubjectAndMessage subject={fields.subject} message={fields.message} />
      <Honeypot name={HONEYPOT_FIELD} />
      <Button type="submit" disabled={navigation.state === "submitting"}>
        Submit
      </Button>
    </Form>
  );
}

export default function Contact({ loaderData, actionData }: Route.ComponentProps) {
  // A new location after the success redirect gives a fresh, empty form.
  const location = useLocation();
  return (
    <div>
      <PageHeader title="Contact Us" />
      <div className="grid gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <p className="mb-4 text-sm text-slate-600">
            Questions about SMS credits, the API or your account? Send us a message and we will answer by e-mail.
          </p>
          <ContactForm key={location.key} sender={loaderData.sender} lastResult={actionData} />
        </Card>
        <Card className="self-start">
          <h2 className="mb-4 text-lg font-semibold text-slate-900">Reach us directly</h2>
          <ContactDetailsList details={loaderData.details} />
        </Card>
      </div>
    </div>
  );
}
