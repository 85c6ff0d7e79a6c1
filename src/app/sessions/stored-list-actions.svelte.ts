/**
 * A list of stored things (Recent sessions, kept trace files) and its actions: the list is read
 * when its store opens and whenever any tab changes it (`watch`); actions run one at a time, the
 * list's buttons disabled meanwhile; a failure (of an action or of reading) is kept to show, and
 * after a failed action the list is read again, since another tab may have changed what it names.
 */
export class StoredListActions {
  /** The id of the item whose action runs, or null. */
  busy = $state<string | null>(null);
  /** The last failure (of an action or of reading the list), shown until dismissed. */
  problem = $state.raw<unknown>(null);
  readonly #read: () => Promise<void>;

  /** `read`: reads the list into the component's state (its failure is kept in `problem`). */
  constructor(read: () => Promise<void>) {
    this.#read = read;
  }

  /** Reads the list now. */
  async refresh(): Promise<void> {
    try {
      await this.#read();
    } catch (error) {
      this.problem = error;
    }
  }

  /**
   * Reads the list now and whenever the store says it changed; what it returns stops that (an
   * `$effect`'s cleanup). No store (not open yet): nothing.
   */
  watch(store: { subscribe(listener: () => void): () => void } | null | undefined): (() => void) | undefined {
    if (!store) return undefined;
    void this.refresh();
    return store.subscribe(() => void this.refresh());
  }

  async run(id: string, action: () => Promise<unknown>): Promise<void> {
    this.busy = id;
    this.problem = null;
    try {
      await action();
    } catch (error) {
      this.problem = error;
      await this.refresh();
    } finally {
      this.busy = null;
    }
  }
}
