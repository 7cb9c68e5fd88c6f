// Helpers that read or write the e2e server's database use the app's own modules: point their
// configuration at the server's DATA_DIR before the first getEnv() (or getDb()) reads it.
export function useServerData(): void {
  process.env.DATA_DIR = process.env.E2E_DATA_DIR;
  process.env.SESSION_SECRET ??= "e2e-session-secret-of-32-characters";
}
