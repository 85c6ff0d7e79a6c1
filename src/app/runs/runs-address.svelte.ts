/**
 * The run view's address: `#runs` (the list), `#runs/<run>` (a run), `#runs/<run>/<step>` (a step),
 * `#blame/<run>` ("Blame this run": the run's setup). A study opened from the run view (a replay)
 * has the study's address (url-sync.svelte.ts); going back to a run-view address shows the run
 * view in front of it, and forward to the study's address shows the study again.
 * Opening another run is a new history entry, so Back and Forward move between the list and runs;
 * moving between steps replaces the entry (arrow keys would fill the history otherwise). An address
 * naming a run that is not open reopens its file from this browser's store (runs-keeper.svelte.ts);
 * when the file is not kept here, the page says so plainly and offers to open it, and shows the
 * address's place once it is open.
 */
import type { RestoreOutcome } from './runs-keeper.svelte.ts';
import type { RunsState } from './runs-state.svelte.ts';

export interface RunsPlace {
  key: string | null;
  stepId: string | null;
  /** The run's "Blame this run" setup is shown (only with a key). */
  setup?: boolean;
}

/** The hash (without `#`) for a place in the run view. */
export function runsHash(place: RunsPlace): string {
  if (place.key === null) return 'runs';
  if (place.setup) return `blame/${encodeURIComponent(place.key)}`;
  return `runs/${encodeURIComponent(place.key)}${place.stepId === null ? '' : `/${encodeURIComponent(place.stepId)}`}`;
}

/** The place a hash names, or null when it is not a run-view address. */
export function parseRunsHash(hash: string): RunsPlace | null {
  const body = hash.replace(/^#/, '');
  if (body.startsWith('blame/')) {
    try {
      const key = decodeURIComponent(body.slice('blame/'.length));
      if (key !== '') return { key, stepId: null, setup: true };
    } catch {
      // An unreadable key: the run list.
    }
    return { key: null, stepId: null };
  }
  if (body !== 'runs' && !body.startsWith('runs/')) return null;
  const [, key, stepId] = body.split('/');
  try {
    return { key: key ? decodeURIComponent(key) : null, stepId: stepId ? decodeURIComponent(stepId) : null };
  } catch {
    return { key: null, stepId: null };
  }
}

/** What the page offers beside a message: open the file the address needs. */
export interface OpenFileAction {
  label: string;
  run: () => void;
}

/** "Blame this run" as the address sees it: the setup shown, and the study made from a run. */
export interface BlameFlow {
  /** The key of the run whose setup is shown, or null. */
  readonly setupKey: string | null;
  /** Shows the setup of this run (kept as it was left, when it was opened before). */
  begin(key: string): void;
  /** Hides the setup (its fields are kept for the next time). */
  cancel(): void;
  /** Shows the study in front of the run view, when one is open; false when none is. */
  backToStudy(): boolean;
}

export class RunsAddress {
  /** Set once the page has it (the launcher is made after the address in some pages). */
  blame: BlameFlow | null = null;
  #applying = false;
  /** Kept files are being reopened for an address: another address waits for them (Back pressed meanwhile). */
  #restoring = false;
  /** The place an address named while its file was not open: shown once the user opens it. */
  #pending: RunsPlace | null = null;

  /**
   * @param say shows a plain message on the page (an address naming a run that is not open)
   * @param restore reopens an address's run from this browser's store
   * @param openFile what the page offers to open the file an address needs
   */
  constructor(
    readonly runs: RunsState,
    readonly say: (message: string, action?: OpenFileAction) => void,
    readonly restore?: (place: RunsPlace) => Promise<RestoreOutcome>,
    readonly openFile?: OpenFileAction,
  ) {}

  /** Writes the address for what the run view shows (call inside an effect). */
  write(): void {
    // A study in front of the runs has the study's address.
    if (!this.runs.shown || this.#applying) return;
    const setupKey = this.blame?.setupKey ?? null;
    const place: RunsPlace = setupKey !== null ? { key: setupKey, stepId: null, setup: true } : { key: this.runs.selectedKey, stepId: this.runs.selectedKey === null ? null : this.runs.selectedStepId };
    const hash = runsHash(place);
    if (`#${hash}` === location.hash) return;
    const before = parseRunsHash(location.hash);
    const url = `${location.pathname}${location.search}#${hash}`;
    if (before === null || before.key !== place.key || Boolean(before.setup) !== Boolean(place.setup)) history.pushState(null, '', url);
    else history.replaceState(null, '', url);
  }

  /** Shows the place the address names (on load, Back and Forward). */
  apply(): void {
    const place = parseRunsHash(location.hash);
    if (place === null) {
      // The address of a study (Forward from the run view to a replay made from it): it is shown in front.
      if (this.runs.shown && /^#(?:.*&)?session=/.test(location.hash) && this.blame) {
        this.blame.cancel();
        this.blame.backToStudy();
      }
      return;
    }
    if (this.#restoring) return;
    if (!this.runs.open) {
      if (this.restore) void this.#restore(place, location.hash);
      else this.say(place.key === null ? 'This address names a list of recorded runs, and none is open: open the files or folder to see them.' : `This address names the run "${place.key}", which is not open: open its file to see it.`, this.openFile);
      return;
    }
    this.#show(place);
  }

  /**
   * Runs were just opened by the user: the place an address named while they were not open is
   * shown now (call right after adding them, before the address is written).
   */
  opened(): void {
    const place = this.#pending;
    this.#pending = null;
    if (place === null || !this.runs.open || parseRunsHash(location.hash) === null) return;
    const run = place.key === null ? null : this.runs.runs.find((r) => r.key === place.key || `${r.fileName} ${r.run.id}` === place.key);
    if (place.key !== null && !run) {
      this.say(`This address names the run "${place.key}", which is not in the files just opened.`, this.openFile);
      return;
    }
    this.#show({ key: run?.key ?? null, stepId: place.stepId });
    history.replaceState(null, '', `${location.pathname}${location.search}#${runsHash({ key: this.runs.selectedKey, stepId: this.runs.selectedKey === null ? null : this.runs.selectedStepId })}`);
  }

  /** Reopens the address's run from the store; the address is not rewritten meanwhile. */
  async #restore(place: RunsPlace, hash: string): Promise<void> {
    this.#applying = true;
    this.#restoring = true;
    let outcome: RestoreOutcome;
    try {
      outcome = await this.restore!(place);
    } catch (error) {
      this.say(`The recorded runs kept in this browser could not be read: ${error instanceof Error ? error.message : String(error)}`, this.openFile);
      this.#pending = place;
      return;
    } finally {
      this.#applying = false;
      this.#restoring = false;
    }
    // The address changed while the files were read (Back, Forward): it is the one shown.
    if (location.hash !== hash) {
      this.apply();
      return;
    }
    if (outcome.status === 'opened') {
      // A reloaded `#blame/<run>` reopens the run's setup, not only the run.
      const shown: RunsPlace = { key: outcome.key, stepId: place.stepId, ...(place.setup && outcome.key !== null && { setup: true }) };
      if (outcome.key !== place.key) history.replaceState(null, '', `${location.pathname}${location.search}#${runsHash(shown)}`);
      this.#show(shown);
      return;
    }
    this.#pending = place;
    const what = place.key === null ? 'a list of recorded runs' : `the run "${place.key}"`;
    const them = place.key === null ? 'the files' : 'the file';
    this.say(
      outcome.status === 'unavailable'
        ? `This address names ${what}, and this window cannot use the browser's storage, where opened trace files are kept: open ${them} to see ${place.key === null ? 'them' : 'it'}.`
        : place.key === null
          ? 'This address names a list of recorded runs, and no trace file is kept in this browser: they were opened in another browser, or removed from this one. Open the files to see them.'
          : `This address names ${what}, whose file is not kept in this browser: it was opened in another browser, or removed from this one. Open the file to see it.`,
      this.openFile,
    );
  }

  #show(place: RunsPlace): void {
    this.#applying = true;
    try {
      const run = place.key === null ? null : this.runs.runs.find((r) => r.key === place.key);
      if (place.key !== null && !run) {
        this.say(`This address names the run "${place.key}", which is not among the open runs.`);
        return;
      }
      if (this.runs.selectedKey !== (run?.key ?? null)) this.runs.select(run?.key ?? null);
      if (run && place.stepId !== null && run.run.steps.some((s) => s.id === place.stepId)) this.runs.selectedStepId = place.stepId;
      // A run-view address shows the run view, in front of any study made from a run.
      this.runs.behindStudy = false;
      if (run && place.setup && this.blame) {
        if (this.blame.setupKey !== run.key) this.blame.begin(run.key);
      } else if (this.blame?.setupKey != null) this.blame.cancel();
    } finally {
      this.#applying = false;
    }
  }

  /** The run view was closed: the address leaves it too (a new entry, so Back reopens nothing stale). */
  closed(): void {
    if (parseRunsHash(location.hash) !== null) history.pushState(null, '', `${location.pathname}${location.search}`);
  }

  start(): void {
    this.apply();
    window.addEventListener('popstate', () => this.apply());
  }
}
