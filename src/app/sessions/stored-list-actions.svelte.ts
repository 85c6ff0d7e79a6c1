/**
 * The actions of a list of stored things (Recent sessions, kept trace files): one at a time, the
 * list's buttons disabled meanwhile; a failure is kept to show and the list read again, since
 * another tab may have changed what it names.
 */
export class StoredListActions {
  /** The id of the item whose action runs, or null. */
  busy = $state<string | null>(null);
  /** The last failure (of an action or of reading the list), shown until dismissed. */
  problem = $state.raw<unknown>(null);
  readonly #refresh: () => Promise<void>;

  constructor(refresh: () => Promise<void>) {
    this.#refresh = refresh;
  }

  async run(id: string, action: () => Promise<unknown>): Promise<void> {
    this.busy = id;
    this.problem = null;
    try {
      await action();
    } catch (error) {
      this.problem = error;
      await this.#refresh();
    } finally {
      this.busy = null;
    }
  }
}
