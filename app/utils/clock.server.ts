// One source of "now" for the server, so tests can move time instead of sleeping.
let source: () => number = Date.now;

export const clock = {
  now: (): number => source(),
  date: (): Date => new Date(source()),
};

export function setClock(now: () => number): void {
  source = now;
}

export function resetClock(): void {
  source = Date.now;
}
