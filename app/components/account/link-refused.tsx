import type { ReactNode } from "react";
import { Card, Notice, PageHeader } from "#app/components/ui/page.tsx";

/** What a dead e-mail link shows: the reason and what to do next. */
export function LinkRefused({ title, refusal, children }: { title: string; refusal: string; children?: ReactNode }) {
  return (
    <div className="mx-auto max-w-md">
      <PageHeader title={title} />
      <Card>
        <Notice tone="danger">{refusal}</Notice>
        {children ? <div className="mt-4">{children}</div> : null}
      </Card>
    </div>
  );
}
