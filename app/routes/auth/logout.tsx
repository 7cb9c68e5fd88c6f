import { href, redirect } from "react-router";
import { endSession } from "#app/modules/auth/session.server.ts";
import type { Route } from "./+types/logout";

export function loader() {
  // Logging out changes state, so only a POST does it.
  return redirect(href("/"));
}

export async function action({ request }: Route.ActionArgs) {
  return redirect(href("/"), { headers: { "Set-Cookie": await endSession(request) } });
}
