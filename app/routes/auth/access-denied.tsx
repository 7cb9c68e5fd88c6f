import { href, Link } from "react-router";
import { PageHeader, Notice } from "#app/components/ui/page.tsx";

export default function AccessDenied() {
  return (
    <div className="mx-auto max-w-xl">
      <PageHeader title="Access Denied" />
      <Notice tone="danger">You do not have permission to view this page.</Notice>
      <p className="mt-6">
        <Link to={href("/")}>Back to Home</Link>
      </p>
    </div>
  );
}
