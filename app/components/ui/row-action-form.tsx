import { Form } from "react-router";
import { Button } from "#app/components/ui/button.tsx";

/**
 * One table row's button: a plain form posting `intent` with the row's id (`idField`), so it works
 * without JavaScript; `target` names the row for screen readers ("Remove +12025550123").
 */
export function RowActionForm({
  intent,
  id,
  idField = "id",
  label,
  target,
}: {
  intent: string;
  id: number;
  idField?: string;
  label: string;
  target?: string;
}) {
  return (
    <Form method="post">
      <input type="hidden" name={idField} value={id} />
      <Button type="submit" name="intent" value={intent} variant="secondary" size="sm">
        {label}
        {target === undefined ? null : <span className="sr-only"> {target}</span>}
      </Button>
    </Form>
  );
}
