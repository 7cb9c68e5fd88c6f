import { Card } from "#app/components/ui/page.tsx";

/** A webhook signing secret, shown once after it was made. */
export function SecretPanel({ secret }: { secret: { what: string; value: string } }) {
  return (
    <Card className="ring-2 ring-amber-300">
      <h2 className="text-lg font-semibold text-slate-900">{secret.what}</h2>
      <p className="mt-1 text-sm text-slate-700">
        Copy it now: it is shown this once. Verify each delivery's <code>webhook-signature</code> header with it.
      </p>
      <label htmlFor="webhook-secret" className="mt-3 block text-sm font-medium text-slate-700">
        Signing secret
      </label>
      <input
        id="webhook-secret"
        data-testid="webhook-secret"
        readOnly
        value={secret.value}
        className="mt-1 block w-full rounded border-slate-300 font-mono text-sm"
      />
    </Card>
  );
}
