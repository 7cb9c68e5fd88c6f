import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "#app/web/forms.ts";
import { data, Form, href, useNavigation } from "react-router";
import type { z } from "zod";
import { Button, ButtonLink } from "#app/components/ui/button.tsx";
import { ErrorList, Field, SelectField, TextareaField } from "#app/components/ui/field.tsx";
import { Card, Notice, PageHeader } from "#app/components/ui/page.tsx";
import { requireAdmin } from "#app/routes/auth/guards.server.ts";
import { parsePackageFormData } from "#app/routes/shop/menu-item-upsert.server.ts";
import { PackageFormSchema } from "#app/modules/shop/package-forms.ts";
import {
  CATEGORY_LABELS,
  centsToDollarInput,
  DEMO_PACKAGE_NOTICE,
  IMAGE_MESSAGES,
  PACKAGE_CATEGORIES,
} from "#app/modules/shop/packages.ts";
import { getPackage, savePackage } from "#app/modules/shop/packages.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { notFound } from "#app/web/responses.server.ts";
import { redirectWithToast } from "#app/web/toast.server.ts";
import type { Route } from "./+types/menu-item-upsert";
import { idOf } from "#app/web/params.ts";

export const meta: Route.MetaFunction = ({ params }) => [
  { title: `${params.id ? "Update" : "Add"} Menu Item | SMS Gateway` },
];

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const item = params.id ? await getPackage(idOf(params.id)) : null;
  if (params.id && !item) throw notFound();
  return {
    demoMode: getEnv().DEMO_MODE,
    item: item
      ? {
          id: item.id,
          name: item.name,
          description: item.description,
          specialTag: item.specialTag,
          category: item.category,
          price: centsToDollarInput(item.priceCents),
          credits: String(item.credits),
          image: item.image,
        }
      : null,
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  await requireAdmin(request);
  const id = params.id ? idOf(params.id) : null;
  if (id !== null && !(await getPackage(id))) throw notFound();
  if (getEnv().DEMO_MODE)
    return data({ status: "error" as const, error: { "": [DEMO_PACKAGE_NOTICE] } }, { status: 403 });

  const parsed = await parsePackageFormData(request);
  // The upload was cut off while streaming, so no other field arrived either.
  if ("tooLarge" in parsed)
    return data({ status: "error" as const, error: { image: [IMAGE_MESSAGES.size] } }, { status: 413 });
  if ("unreadable" in parsed)
    return data({ status: "error" as const, error: { image: [IMAGE_MESSAGES.unreadable] } }, { status: 400 });

  const submission = parseWithZod(parsed.formData, { schema: PackageFormSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const { image, price, ...fields } = submission.value;
  const saved = await savePackage(id, { ...fields, priceCents: price }, image);
  if (!saved.ok) return data(submission.reply({ fieldErrors: { image: [saved.imageError] } }), { status: 400 });
  return redirectWithToast(href("/menuItem/menuitemlist"), { description: "Menu Item created/updated successfully" });
}

export default function MenuItemUpsert({ loaderData, actionData }: Route.ComponentProps) {
  const { item, demoMode } = loaderData;
  // A file input cannot be given a value: the current image is shown beside it instead.
  const { image: currentImage, ...values } = item ?? { image: "" };
  const navigation = useNavigation();
  const [form, fields] = useForm<z.input<typeof PackageFormSchema>, z.output<typeof PackageFormSchema>>({
    id: item ? `menu-item-${item.id}` : "menu-item-new",
    lastResult: actionData,
    defaultValue: item ? values : { category: "appetizer" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: PackageFormSchema }),
    // Not onBlur: a blur-time validation while the submit button is being clicked swallows that click.
    shouldRevalidate: "onInput",
  });
  return (
    <div className="mx-auto max-w-2xl">
      <PageHeader title={item ? "Update Menu Item" : "Add Menu Item"} />
      {demoMode ? (
        <Notice tone="danger" className="mb-4">
          {DEMO_PACKAGE_NOTICE}
        </Notice>
      ) : null}
      <Card>
        <Form method="post" encType="multipart/form-data" {...getFormProps(form)} noValidate className="space-y-4">
          <ErrorList id={form.errorId} errors={form.errors} />
          <Field label="Name" inputProps={getInputProps(fields.name, { type: "text" })} errors={fields.name.errors} />
          <TextareaField
            label="Description"
            textareaProps={{ ...getTextareaProps(fields.description), rows: 3 }}
            errors={fields.description.errors}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <Field
              label="Special Tag"
              inputProps={getInputProps(fields.specialTag, { type: "text" })}
              errors={fields.specialTag.errors}
            />
            <SelectField label="Category" selectProps={getSelectProps(fields.category)} errors={fields.category.errors}>
              {PACKAGE_CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {CATEGORY_LABELS[c]}
                </option>
              ))}
            </SelectField>
            <Field
              label="Price ($)"
              inputProps={{
                ...getInputProps(fields.price, { type: "text" }),
                inputMode: "decimal",
                placeholder: "40.00",
              }}
              errors={fields.price.errors}
            />
            <Field
              label="Credits"
              inputProps={{ ...getInputProps(fields.credits, { type: "number" }), min: 1, step: 1 }}
              errors={fields.credits.errors}
            />
          </div>
          <div className="flex flex-wrap items-end gap-4">
            <Field
              label="Image"
              className="flex-1"
              inputProps={{ ...getInputProps(fields.image, { type: "file" }), accept: "image/png,image/jpeg" }}
              errors={fields.image.errors}
              help="JPEG or PNG, less than 1 MB."
            />
            {currentImage ? (
              <img src={currentImage} alt="Current image" className="h-16 w-24 rounded object-cover" />
            ) : null}
          </div>
          <div className="flex flex-wrap gap-3 pt-2">
            <Button type="submit" disabled={demoMode || navigation.state === "submitting"}>
              {item ? "Update" : "Create"}
            </Button>
            <ButtonLink to={href("/menuItem/menuitemlist")} variant="secondary">
              Back to Menu Items
            </ButtonLink>
          </div>
        </Form>
      </Card>
    </div>
  );
}
