export type TestModeNotice = { sms: boolean; payments: boolean; demo: boolean };

/** On every page while a test component runs: what here is not real. Plain HTML, so it shows without JavaScript. */
export function TestModeBanner({ notice }: { notice: TestModeNotice }) {
  return (
    <section aria-label="Test mode" className="border-b border-amber-300 bg-amber-100 text-amber-950">
      <div className="mx-auto flex w-full max-w-7xl flex-wrap items-baseline gap-x-3 gap-y-1 px-4 py-2 text-sm">
        <strong className="font-semibold">Test mode</strong>
        {notice.payments ? <span>Payments are test cards: no card is charged.</span> : null}
        {notice.sms ? <span>Messages go to a simulator and reach no phone.</span> : null}
        {notice.demo ? <span>Demo accounts and sample data are loaded.</span> : null}
      </div>
    </section>
  );
}
