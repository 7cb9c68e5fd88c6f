import { PageHeader, Notice } from "./ui/page.tsx";

/** Stands in for a screen whose issue is not done yet; the route and its guard are real. */
export function Placeholder({ title }: { title: string }) {
  return (
    <div>
      <PageHeader title={title} />
      <Notice>This screen is coming soon.</Notice>
    </div>
  );
}
