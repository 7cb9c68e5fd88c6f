export type TestModeNotice = { sms: boolean; payments: boolean; cardsAccepted: boolean };

/** On every page while the gateway is in test mode: what here is not real. Plain HTML, so it shows without JavaScript. */
export function TestModeBanner({ notice }: { notice: TestModeNotice }) {
  return (
    <section aria-label="Test mode" className="border-b border-amber-300 bg-amber-100 text-amber-950">
      <div className="mx-auto flex w-full max-w-7xl flex-wrap items-baseline gap-x-3 gap-y-1 px-4 py-2 text-sm">
        <strong className="font-semibold">Test mode</strong>
        {notice.payments ? (
          <span>
            {notice.cardsAccepted
              ? "Payments are test cards: no card is charged."
              : "Card payments are not configured."}
          </span>
        ) : null}
        {notice.sms ? <span>Messages go to a simulator and reach no phone.</span> : null}
      </div>
    </section>
  );
}
