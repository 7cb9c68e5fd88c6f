import { Card } from "#app/components/ui/page.tsx";

/** A webhook signing secret, shown on the page a new one leads to. */
export function SecretPanel({ what, value }: { what: string; value: string }) {
  return (
    <Card className="ring-2 ring-amber-300">
      <h2 className="text-lg font-semibold text-slate-900">{what}</h2>
      <p className="mt-1 text-sm text-slate-700">
        Shown because it was just made; keep it on your server and verify each delivery's <code>webhook-signature</code>{" "}
        header with it.
      </p>
      <label htmlFor="webhook-secret" className="mt-3 block text-sm font-medium text-slate-700">
        Signing secret
      </label>
      <input
        id="webhook-secret"
        data-testid="webhook-secret"
        readOnly
        value={value}
        className="mt-1 block w-full rounded border-slate-300 font-mono text-sm"
      />
    </Card>
  );
}
