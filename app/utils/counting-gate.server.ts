/**
 * A count shared by concurrent work, each taking its share before it starts and giving it back when
 * done: a share waits, in arrival order, until it fits under the limit its caller gives (one share
 * alone always goes, so a share larger than the limit cannot wait for good).
 */
export class CountingGate {
  private held = 0;
  private readonly waiting: { share: number; limit: number; go: () => void }[] = [];

  /** What the work that has started holds now. */
  get taken(): number {
    return this.held;
  }

  async take(share: number, limit: number): Promise<void> {
    if (this.waiting.length === 0 && this.fits(share, limit)) {
      this.held += share;
      return;
    }
    await new Promise<void>((go) => this.waiting.push({ share, limit, go }));
  }

  give(share: number): void {
    this.held -= share;
    while (this.waiting.length > 0 && this.fits(this.waiting[0].share, this.waiting[0].limit)) {
      const next = this.waiting.shift()!;
      this.held += next.share;
      next.go();
    }
  }

  private fits(share: number, limit: number): boolean {
    return this.held === 0 || this.held + share <= limit;
  }
}
