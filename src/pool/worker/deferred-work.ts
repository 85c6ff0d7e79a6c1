/**
 * Work a definition leaves behind (promise callbacks, an async run's continuation) runs after its
 * case's synchronous analysis; both kinds of analysis worker charge it to that case: before the
 * case is answered, `settle` lets every microtask it queued run (through the host's `hop`, which
 * goes past the microtask queue: a callback that spins keeps the case busy, so the pool's timer
 * blames this case, not the next one), and a rejection nobody handled becomes the case's error.
 */
export class DeferredWork {
  #unhandled: unknown[] = [];
  readonly #hop: () => Promise<void>;

  /** `hop`: how this host waits until the microtasks queued so far (and their reports) have run. */
  constructor(hop: () => Promise<void>) {
    this.#hop = hop;
  }

  /** The host's unhandled-rejection event calls this with the reason. */
  rejected(reason: unknown): void {
    this.#unhandled.push(reason);
  }

  /** Runs what the case left behind; the case's error when one of its promises was rejected unhandled, else null. */
  async settle(): Promise<string | null> {
    await this.#hop();
    const rejected = this.#unhandled;
    this.#unhandled = [];
    if (rejected.length === 0) return null;
    return `a promise it created was rejected and never handled: ${reasonText(rejected[0])}`;
  }
}

/** A rejection's reason as text: `TypeError: x`, the value, or a note when even that throws. */
export function reasonText(reason: unknown): string {
  try {
    return reason instanceof Error ? `${reason.name}: ${reason.message}` : String(reason);
  } catch {
    return 'a value that cannot be shown';
  }
}
