// Between the password and the two-factor code: a signed cookie naming the user, valid 5 minutes.
// No session exists until the code is right, so a password alone opens nothing.
import { createCookie } from "react-router";
import { clock } from "#app/utils/clock.server.ts";
import { getEnv, getSecrets } from "#app/utils/env.server.ts";

const SECOND_STEP_MS = 5 * 60_000;

function secondStepCookie() {
  const { cookieSecure } = getEnv();
  return createCookie(cookieSecure ? "__Host-second-step" : "__second-step", {
    httpOnly: true,
    sameSite: "lax",
    secure: cookieSecure,
    path: "/",
    secrets: getSecrets().session,
  });
}

/** The Set-Cookie that starts the second step for `userId`. */
export function startSecondStep(userId: number): Promise<string> {
  return secondStepCookie().serialize(
    { userId, until: clock.now() + SECOND_STEP_MS },
    { maxAge: SECOND_STEP_MS / 1000 },
  );
}

/** The user whose password was right a moment ago in this browser, or null. */
export async function secondStepUser(request: Request): Promise<number | null> {
  const value: unknown = await secondStepCookie().parse(request.headers.get("Cookie"));
  if (!value || typeof value !== "object") return null;
  const { userId, until } = value as { userId?: unknown; until?: unknown };
  if (typeof userId !== "number" || typeof until !== "number" || clock.now() >= until) return null;
  return userId;
}

export function endSecondStep(): Promise<string> {
  return secondStepCookie().serialize("", { maxAge: 0 });
}
