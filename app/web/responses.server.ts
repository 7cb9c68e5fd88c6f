import { data } from "react-router";

/** React Router's 404 for a loader or action to throw (or return): the error boundary renders the "NotFound" page. */
export function notFound() {
  return data(null, { status: 404 });
}
