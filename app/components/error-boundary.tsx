import { href, isRouteErrorResponse, Link, useRouteError } from "react-router";

/** One place that turns thrown responses and errors into a page. 404 reads exactly "NotFound". */
export function GeneralErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return <h1 className="py-16 text-center text-2xl font-semibold">NotFound</h1>;
  }
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message =
    isRouteErrorResponse(error) && typeof error.data === "string" && error.data
      ? error.data
      : "An unexpected error occurred.";
  if (typeof window === "undefined" && !isRouteErrorResponse(error)) console.error(error);
  return (
    <div className="mx-auto max-w-xl py-16 text-center">
      <h1 className="text-2xl font-semibold">{status === 403 ? "Access denied" : "Something went wrong"}</h1>
      <p className="mt-4 text-slate-600">{message}</p>
      <p className="mt-6">
        <Link to={href("/")}>Back to Home</Link>
      </p>
    </div>
  );
}
