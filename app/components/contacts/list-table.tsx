import { Fragment, type ReactNode } from "react";
import type { ListPanel } from "#app/web/contact-lists.ts";
import { ButtonLink } from "#app/components/ui/button.tsx";
import { Pager } from "#app/components/ui/pager.tsx";
import { LabelledCell, Table, Td, Th } from "#app/components/ui/table.tsx";

/** The SMS Gateway and Actions cells of a contact or group row; each button opens its panel. */
export function RowActionCells({ noun, href }: { noun: "Contact" | "Group"; href: (panel: ListPanel) => string }) {
  const link = { size: "sm", variant: "secondary", preventScrollReset: true } as const;
  return (
    <>
      <LabelledCell label="SMS Gateway">
        <span className="flex flex-wrap gap-2">
          <ButtonLink to={href("send")} {...link} variant="primary">
            Send SMS
          </ButtonLink>
          <ButtonLink to={href("schedule")} {...link}>
            Schedule SMS
          </ButtonLink>
        </span>
      </LabelledCell>
      <LabelledCell label="Actions">
        <span className="flex flex-wrap gap-2">
          <ButtonLink to={href("edit")} {...link}>
            Edit {noun}
          </ButtonLink>
          <ButtonLink to={href("delete")} {...link} className="text-red-700 hover:text-red-800">
            Delete {noun}
          </ButtonLink>
        </span>
      </LabelledCell>
    </>
  );
}

/**
 * A paged table whose rows can each open one inline panel (a table row) under them; a panel for a
 * row on another page opens above the table.
 */
export function PanelledTable<T extends { id: number }>({
  columns,
  items,
  empty,
  row,
  panelFor,
  panel,
  page,
  totalPages,
  pageHref,
  label,
}: {
  columns: string[];
  items: T[];
  empty: string;
  row: (item: T) => ReactNode;
  /** The id of the row whose panel is open. */
  panelFor: number | null;
  panel: ReactNode;
  page: number;
  totalPages: number;
  pageHref: (page: number) => string;
  label: string;
}) {
  const offPage = panelFor !== null && !items.some((item) => item.id === panelFor);
  return (
    <>
      {offPage ? (
        <Table className="mb-4">
          <tbody>{panel}</tbody>
        </Table>
      ) : null}
      <Table>
        <thead className="hidden sm:table-header-group">
          <tr>
            {columns.map((column) => (
              <Th key={column}>{column}</Th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {items.length === 0 ? (
            <tr>
              <Td colSpan={columns.length} className="py-8 text-center text-slate-600">
                {empty}
              </Td>
            </tr>
          ) : (
            items.map((item) => (
              <Fragment key={item.id}>
                {row(item)}
                {item.id === panelFor ? panel : null}
              </Fragment>
            ))
          )}
        </tbody>
      </Table>
      <Pager
        previous={page > 1 ? pageHref(page - 1) : null}
        next={page < totalPages ? pageHref(page + 1) : null}
        summary={`Page ${page} of ${totalPages}`}
        label={label}
      />
    </>
  );
}
