import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "#app/web/forms.ts";
import { data, Form, href, Link, useNavigation } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { Field, FormErrors } from "#app/components/ui/field.tsx";
import { Card, Notice, PageHeader } from "#app/components/ui/page.tsx";
import { createFirstAdmin, SETUP_LINK_MESSAGES, setupLinkState } from "#app/modules/auth/first-admin.server.ts";
import { startSession } from "#app/modules/auth/session.server.ts";
import { SetupAdminSchema } from "#app/modules/auth/setup-schema.ts";
import { redirectWithToast } from "#app/web/toast.server.ts";
import type { Route } from "./+types/setup";

export const meta: Route.MetaFunction = () => [
  { title: "Create the administrator | SMS Gateway" },
  { name: "robots", content: "noindex" },
];

const HIDDEN_FIELDS = ["password", "confirmPassword"];

/** A link that cannot be used answers 410 (used, expired, replaced) with what to do next. */
function refused(state: keyof typeof SETUP_LINK_MESSAGES) {
  return data({ refusal: SETUP_LINK_MESSAGES[state] }, { status: state === "unknown" ? 404 : 410 });
}

export async function loader({ params }: Route.LoaderArgs) {
  const state = await setupLinkState(params.token);
  return state === "valid" ? { refusal: null } : refused(state);
}

export async function action({ request, params }: Route.ActionArgs) {
  const state = await setupLinkState(params.token);
  if (state !== "valid") return refused(state);
  const submission = parseWithZod(await request.formData(), { schema: SetupAdminSchema });
  if (submission.status !== "success") return data(submission.reply({ hideFields: HIDDEN_FIELDS }), { status: 400 });
  const { email, fullName, password } = submission.value;
  const result = await createFirstAdmin(params.token, { email, fullName, password });
  if (!result.ok && result.field === "email") {
    return data(submission.reply({ fieldErrors: { email: [result.error] }, hideFields: HIDDEN_FIELDS }), {
      status: 400,
    });
  }
  if (!result.ok) return refused(result.state);
  const cookie = await startSession(request, result.user.id);
  return redirectWithToast(
    href("/order/allOrders"),
    { description: "Administrator account created. You are signed in." },
    { headers: { "Set-Cookie": cookie } },
  );
}

export default function Setup({ loaderData, actionData }: Route.ComponentProps) {
  const refusal = (actionData && "refusal" in actionData ? actionData.refusal : null) ?? loaderData.refusal;
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "setup-admin",
    lastResult: actionData && !("refusal" in actionData) ? actionData : undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SetupAdminSchema }),
    // Not onBlur: an error vanishing on blur moves the button from under the click that caused it.
    shouldRevalidate: "onInput",
  });
  return (
    <div className="mx-auto max-w-md">
      <PageHeader title="Create the administrator" subtitle="The first admin account of this gateway." />
      <Card>
        {refusal ? (
          <div className="space-y-4">
            <Notice tone="warning">
              <p role="alert">{refusal}</p>
            </Notice>
            <p className="text-sm">
              <Link to={href("/login")}>Go to the login page</Link>
            </p>
          </div>
        ) : (
          <Form method="post" className="space-y-4" {...getFormProps(form)} noValidate>
            <FormErrors id={form.errorId} errors={form.errors} />
            <Field
              label="Email"
              inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email", autoFocus: true }}
              errors={fields.email.errors}
            />
            <Field
              label="Full Name"
              inputProps={{ ...getInputProps(fields.fullName, { type: "text" }), autoComplete: "name" }}
              errors={fields.fullName.errors}
            />
            <Field
              label="Password"
              inputProps={{ ...getInputProps(fields.password, { type: "password" }), autoComplete: "new-password" }}
              errors={fields.password.errors}
            />
            <Field
              label="Confirm Password"
              inputProps={{
                ...getInputProps(fields.confirmPassword, { type: "password" }),
                autoComplete: "new-password",
              }}
              errors={fields.confirmPassword.errors}
            />
            <Button type="submit" className="w-full" disabled={navigation.state === "submitting"}>
              Create administrator
            </Button>
          </Form>
        )}
      </Card>
    </div>
  );
}
