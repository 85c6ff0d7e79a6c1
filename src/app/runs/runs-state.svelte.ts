/**
 * The open recorded runs (docs/recorded-runs.md) and what is selected in the run view. Runs are kept raw
 * ($state.raw): they are large, plain and never edited.
 */
import type { Predictions, RecordedRun, RecordedRunFile } from '../../runs/index.ts';
import { naturalCompare } from './find-step.ts';

export interface OpenRun {
  /** Unique within the open set (the run id, with the file when ids repeat). */
  key: string;
  fileName: string;
  format: string;
  run: RecordedRun;
}

export class RunsState {
  runs = $state.raw<OpenRun[]>([]);
  predictions = $state.raw<{ fileName: string; predictions: Predictions } | null>(null);
  selectedKey = $state<string | null>(null);
  selectedStepId = $state<string | null>(null);
  /** Files of a many-file open that could not be read, one line each. */
  problems = $state.raw<string[]>([]);
  /** The runs stay open behind a study made from one of them (a replay): the study shows. */
  behindStudy = $state(false);

  get open(): boolean {
    return this.runs.length > 0;
  }

  /** The run view is what the page shows (runs are open and no study is in front of them). */
  get shown(): boolean {
    return this.open && !this.behindStudy;
  }

  get selected(): OpenRun | null {
    return this.runs.find((r) => r.key === this.selectedKey) ?? null;
  }

  /** Adds the runs of one or more files (the order given is kept). */
  add(files: readonly { fileName: string; runs: RecordedRunFile }[]): void {
    const taken = new Set(this.runs.map((r) => r.key));
    const added: OpenRun[] = [];
    for (const { fileName, runs } of files) {
      for (const run of runs.runs) {
        let key = run.id;
        if (taken.has(key)) key = `${fileName} ${run.id}`;
        for (let n = 2; taken.has(key); n++) key = `${fileName} ${run.id} (${n})`;
        taken.add(key);
        added.push({ key, fileName, format: runs.format, run });
      }
    }
    // Runs listed the way people count (algorithm/2 before algorithm/10), whatever order the files came in.
    this.runs = [...this.runs, ...added].sort((a, b) => naturalCompare(a.key, b.key));
    // One run opens straight away; a list waits for a pick.
    if (this.runs.length === 1) this.select(this.runs[0].key);
  }

  select(key: string | null): void {
    this.selectedKey = key;
    const run = this.selected?.run;
    this.selectedStepId = run && run.steps.length > 0 ? run.steps[0].id : null;
  }

  close(): void {
    this.runs = [];
    this.predictions = null;
    this.selectedKey = null;
    this.selectedStepId = null;
    this.problems = [];
    this.behindStudy = false;
  }
}
