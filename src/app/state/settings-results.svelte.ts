/**
 * The open study's results per settings key, and those on screen. New settings keep the previous
 * settings' results on screen (`previousShown`) until their own first results arrive, so
 * switching a setting never empties the view; results of settings that are no longer current are
 * kept, and shown again at once when the settings come back.
 */
import type { CaseResult } from '../../engine/types.ts';

export type Results = (CaseResult | undefined)[];

export class SettingsResults {
  /** Results by item index as shown (undefined: not analysed yet). */
  shown = $state.raw<Results>([]);
  /** The results shown are those of the previous settings (the current ones have none yet). */
  previousShown = $state(false);
  #byKey = new Map<string, Results>();
  readonly #size: () => number;

  /** `size`: the study's items (cases, then games). */
  constructor(size: () => number) {
    this.#size = size;
  }

  /** Another study, or none: nothing is kept or shown. */
  clear(): void {
    this.#byKey.clear();
    this.shown = [];
    this.previousShown = false;
  }

  /** The results kept under `key` (created empty), written in place as a run under it finishes items. */
  entry(key: string): Results {
    let entry = this.#byKey.get(key);
    if (!entry) {
      entry = new Array<CaseResult | undefined>(this.#size()).fill(undefined);
      this.#byKey.set(key, entry);
    }
    return entry;
  }

  /** Shows the results of `key`; with none yet, what is shown stays (marked) until they arrive. */
  show(key: string): void {
    const entry = this.#byKey.get(key);
    if ((!entry || entry.every((r) => r === undefined)) && this.shown.some((r) => r !== undefined)) {
      this.previousShown = true;
      return;
    }
    this.previousShown = false;
    this.shown = entry ? [...entry] : [];
  }

  /** Saved results (a session's) kept under `key`, by item id, and shown. */
  restore(key: string, ids: readonly string[], saved: readonly CaseResult[]): void {
    const byId = new Map(saved.map((r) => [r.id, r]));
    this.#byKey.set(key, ids.map((id) => byId.get(id)));
    this.show(key);
  }

  /** A run under `key` begins: its results are shown, unless the previous settings' stay until its first arrive. */
  beginRun(key: string): Results {
    const entry = this.entry(key);
    if (!(this.previousShown && entry.every((r) => r === undefined))) {
      this.previousShown = false;
      this.shown = [...entry];
    }
    return entry;
  }

  /** New results of `key` (already in its entry) put on screen in one update; false when `key` is no longer the current one. */
  apply(key: string, current: string, arrived: readonly { index: number; result: CaseResult }[]): boolean {
    if (key !== current) return false;
    if (this.previousShown) {
      // The first results of the new settings replace the previous settings' on show.
      this.previousShown = false;
      this.shown = [...this.entry(key)];
    }
    const next = [...this.shown];
    for (const { index, result } of arrived) next[index] = result;
    this.shown = next;
    return true;
  }

  /** The finished results on screen, in item order. */
  finished(): CaseResult[] {
    return this.shown.filter((r): r is CaseResult => r !== undefined);
  }

  /** The finished results of `key` (what is saved: never the previous settings' results on show). */
  finishedOf(key: string): CaseResult[] {
    return this.previousShown ? (this.#byKey.get(key) ?? []).filter((r): r is CaseResult => r !== undefined) : this.finished();
  }
}
