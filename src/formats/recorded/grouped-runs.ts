import { buildRun, type RecordedRunFile } from '../../runs/index.ts';
import { FormatError } from '../format-error.ts';
import { spanToStep, type FoldedSpan } from './span-step.ts';

export interface TracedSpan {
  traceId: string;
  span: FoldedSpan;
}

/** One run per trace id, in order of first appearance. */
export function groupedRuns(spans: readonly TracedSpan[], format: string): RecordedRunFile {
  if (spans.length === 0) throw new FormatError('', 'the file holds no spans');
  const traces = new Map<string, FoldedSpan[]>();
  for (const { traceId, span } of spans) {
    const list = traces.get(traceId);
    if (list) list.push(span);
    else traces.set(traceId, [span]);
  }
  return { format, runs: [...traces.entries()].map(([id, list]) => buildRun({ id, steps: list.map(spanToStep) })) };
}
