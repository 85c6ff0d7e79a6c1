/**
 * The `--inspect --json` shape (docs/recorded-runs.md): runs with their steps in execution order, times as
 * ISO text, and only the contract's fields (messages and attributes stay in the model).
 */
import type { RecordedRun, RecordedRunFile, RunLabel, RunStatus, StepKind, TokenUsage } from './types.ts';

export interface InspectStep {
  id: string;
  parent: string | null;
  name: string;
  kind: StepKind;
  start: string | null;
  end: string | null;
  model: string | null;
  usage: TokenUsage | null;
  error: string | null;
}

export interface InspectRun {
  id: string;
  name: string;
  status: RunStatus;
  label?: RunLabel;
  group?: string;
  /** The run's format, only when the runs shown come from several formats. */
  format?: string;
  steps: InspectStep[];
}

export interface InspectOutput {
  format: string;
  runs: InspectRun[];
}

function iso(ms: number | null): string | null {
  if (ms === null) return null;
  const date = new Date(ms);
  return Number.isFinite(date.getTime()) ? date.toISOString() : null;
}

export function inspectRun(run: RecordedRun, format?: string): InspectRun {
  return {
    id: run.id,
    name: run.name,
    status: run.status,
    ...(run.label ? { label: run.label } : {}),
    ...(run.group ? { group: run.group } : {}),
    ...(format ? { format } : {}),
    steps: run.steps.map((s) => ({ id: s.id, parent: s.parent, name: s.name, kind: s.kind, start: iso(s.start), end: iso(s.end), model: s.model, usage: s.usage, error: s.error })),
  };
}

/** Several files' runs as one output; `format` is "mixed" (and each run names its own) when they differ. */
export function inspectFiles(files: readonly RecordedRunFile[]): InspectOutput {
  const formats = [...new Set(files.map((f) => f.format))];
  const mixed = formats.length > 1;
  return {
    format: mixed ? 'mixed' : (formats[0] ?? 'none'),
    runs: files.flatMap((f) => f.runs.map((r) => inspectRun(r, mixed ? f.format : undefined))),
  };
}
