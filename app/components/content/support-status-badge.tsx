import type { SupportStatus } from "#app/db/schema/support.ts";
import { Badge } from "#app/components/ui/badge.tsx";

/** A support request's status: "Open" (blue) or "Handled" (green), on the Support page and in the admin's inbox. */
export function SupportStatusBadge({ status }: { status: SupportStatus }) {
  return <Badge tone={status === "handled" ? "success" : "primary"}>{status === "handled" ? "Handled" : "Open"}</Badge>;
}
