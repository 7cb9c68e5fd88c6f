import { data, Form, href, useNavigation } from "react-router";
import { Button, ButtonLink } from "#app/components/ui/button.tsx";
import { Notice, PageHeader } from "#app/components/ui/page.tsx";
import { Table, Td, Th } from "#app/components/ui/table.tsx";
import { requireAdmin } from "#app/routes/auth/guards.server.ts";
import { CATEGORY_LABELS, DEMO_PACKAGE_NOTICE, packageTitle } from "#app/modules/shop/packages.ts";
import { deletePackage, listAllPackages } from "#app/modules/shop/packages.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { formatDollars } from "#app/utils/misc.ts";
import { redirectWithToast } from "#app/web/toast.server.ts";
import type { Route } from "./+types/menu-item-list";
import { idOf } from "#app/web/params.ts";

export const meta: Route.MetaFunction = () => [{ title: "Menu Items | SMS Gateway" }];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const items = await listAllPackages();
  // The delete confirmation is URL state (?delete=ID), so it works without JavaScript.
  const confirmId = Number(new URL(request.url).searchParams.get("delete"));
  const confirming = items.find((item) => item.id === confirmId);
  return {
    demoMode: getEnv().DEMO_MODE,
    confirming: confirming ? { id: confirming.id, name: confirming.name } : null,
    items: items.map((item) => ({
      id: item.id,
      name: item.name,
      category: item.category,
      priceCents: item.priceCents,
      specialTag: item.specialTag,
      image: item.image,
    })),
  };
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  const formData = await request.formData();
  if (formData.get("intent") !== "delete") throw data("Unknown action", { status: 400 });
  if (getEnv().DEMO_MODE) {
    return redirectWithToast(
      href("/menuItem/menuitemlist"),
      { type: "error", description: DEMO_PACKAGE_NOTICE },
      { status: 303 },
    );
  }
  const deleted = await deletePackage(idOf(formData.get("id")));
  if (!deleted) {
    return redirectWithToast(href("/menuItem/menuitemlist"), { type: "error", description: "Error encountered." });
  }
  return redirectWithToast(href("/menuItem/menuitemlist"), { description: "Menu Item Deleted Successfully" });
}

function DeleteConfirmation({ item, disabled }: { item: { id: number; name: string }; disabled: boolean }) {
  const navigation = useNavigation();
  const deleting = navigation.state !== "idle" && navigation.formData?.get("intent") === "delete";
  return (
    <Notice tone="warning" className="mb-4">
      <Form method="post" className="flex flex-wrap items-center gap-3">
        <input type="hidden" name="id" value={item.id} />
        <p className="flex-1">
          Are you sure you want to delete <strong>{packageTitle(item.name)}</strong>?
        </p>
        {deleting ? (
          <p role="status" className="font-medium">
            Processing your request...
          </p>
        ) : null}
        <Button type="submit" name="intent" value="delete" variant="danger" size="sm" disabled={disabled || deleting}>
          Delete
        </Button>
        <ButtonLink to={href("/menuItem/menuitemlist")} variant="secondary" size="sm">
          Cancel
        </ButtonLink>
      </Form>
    </Notice>
  );
}

export default function MenuItemList({ loaderData }: Route.ComponentProps) {
  const { items, demoMode, confirming } = loaderData;
  return (
    <div>
      <PageHeader
        title="Menu Item List"
        actions={<ButtonLink to={href("/menuItem/menuItemUpsert/:id?")}>Add New Menu Item</ButtonLink>}
      />
      {demoMode ? (
        <Notice tone="danger" className="mb-4">
          {DEMO_PACKAGE_NOTICE}
        </Notice>
      ) : null}
      {confirming ? <DeleteConfirmation item={confirming} disabled={demoMode} /> : null}
      <Table>
        <thead>
          <tr>
            <Th>Image</Th>
            <Th>ID</Th>
            <Th>Name</Th>
            <Th>Category</Th>
            <Th className="text-right">Price</Th>
            <Th>Special Tag</Th>
            <Th>Action</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {items.map((item) => (
            <tr key={item.id} data-testid="menu-item-row" className="[&>td]:align-middle">
              <Td>{item.image ? <img src={item.image} alt="" className="h-12 w-16 rounded object-cover" /> : null}</Td>
              <Td>{item.id}</Td>
              <Td>{item.name}</Td>
              <Td>{CATEGORY_LABELS[item.category]}</Td>
              <Td className="text-right">{formatDollars(item.priceCents)}</Td>
              <Td>{item.specialTag}</Td>
              <Td>
                <div className="flex gap-2">
                  <ButtonLink
                    to={href("/menuItem/menuItemUpsert/:id?", { id: String(item.id) })}
                    variant="success"
                    size="sm"
                    aria-label={`Edit ${item.name}`}
                  >
                    Edit
                  </ButtonLink>
                  <ButtonLink to={`?delete=${item.id}`} variant="danger" size="sm" aria-label={`Delete ${item.name}`}>
                    Delete
                  </ButtonLink>
                </div>
              </Td>
            </tr>
          ))}
        </tbody>
      </Table>
    </div>
  );
}
