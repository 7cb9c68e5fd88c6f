import { notFound } from "#app/web/responses.server.ts";

export const handle = { bare: true };

export function loader() {
  return notFound();
}

export function action() {
  return notFound();
}

export default function NotFound() {
  return <h1>NotFound</h1>;
}
