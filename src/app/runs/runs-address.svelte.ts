/**
 * The run view's address: `#runs` (the list), `#runs/<run>` (a run), `#runs/<run>/<step>` (a step).
 * Opening another run is a new history entry, so Back and Forward move between the list and runs;
 * moving between steps replaces the entry (arrow keys would fill the history otherwise). Recorded
 * runs are not kept in this browser, so an address naming a run that is not open says so plainly.
 */
import type { RunsState } from './runs-state.svelte.ts';

export interface RunsPlace {
  key: string | null;
  stepId: string | null;
}

/** The hash (without `#`) for a place in the run view. */
export function runsHash(place: RunsPlace): string {
  if (place.key === null) return 'runs';
  return `runs/${encodeURIComponent(place.key)}${place.stepId === null ? '' : `/${encodeURIComponent(place.stepId)}`}`;
}

/** The place a hash names, or null when it is not a run-view address. */
export function parseRunsHash(hash: string): RunsPlace | null {
  const body = hash.replace(/^#/, '');
  if (body !== 'runs' && !body.startsWith('runs/')) return null;
  const [, key, stepId] = body.split('/');
  try {
    return { key: key ? decodeURIComponent(key) : null, stepId: stepId ? decodeURIComponent(stepId) : null };
  } catch {
    return { key: null, stepId: null };
  }
}

export class RunsAddress {
  #applying = false;

  /** @param say shows a plain message on the page (an address naming a run that is not open) */
  constructor(
    readonly runs: RunsState,
    readonly say: (message: string) => void,
  ) {}

  /** Writes the address for what the run view shows (call inside an effect). */
  write(): void {
    if (!this.runs.open || this.#applying) return;
    const place = { key: this.runs.selectedKey, stepId: this.runs.selectedKey === null ? null : this.runs.selectedStepId };
    const hash = runsHash(place);
    if (`#${hash}` === location.hash) return;
    const before = parseRunsHash(location.hash);
    const url = `${location.pathname}${location.search}#${hash}`;
    if (before === null || before.key !== place.key) history.pushState(null, '', url);
    else history.replaceState(null, '', url);
  }

  /** Shows the place the address names (on load, Back and Forward). */
  apply(): void {
    const place = parseRunsHash(location.hash);
    if (place === null) return;
    if (!this.runs.open) {
      this.say(place.key === null ? 'This address names a list of recorded runs, and none is open: open the files or folder to see them (recorded runs are not kept in this browser).' : `This address names the run "${place.key}", which is not open: open its file to see it (recorded runs are not kept in this browser).`);
      return;
    }
    this.#applying = true;
    try {
      const run = place.key === null ? null : this.runs.runs.find((r) => r.key === place.key);
      if (place.key !== null && !run) {
        this.say(`This address names the run "${place.key}", which is not among the open runs.`);
        return;
      }
      if (this.runs.selectedKey !== (run?.key ?? null)) this.runs.select(run?.key ?? null);
      if (run && place.stepId !== null && run.run.steps.some((s) => s.id === place.stepId)) this.runs.selectedStepId = place.stepId;
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
