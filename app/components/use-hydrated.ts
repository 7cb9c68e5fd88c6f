import { useEffect, useState } from "react";

/** False in the server's HTML and until React runs in the browser: what to show without JavaScript. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
