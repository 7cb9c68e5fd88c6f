import { data } from "react-router";

export const handle = { bare: true };

export function loader() {
  return data(null, { status: 404 });
}

export function action() {
  return data(null, { status: 404 });
}

export default function NotFound() {
  return <h1>NotFound</h1>;
}
