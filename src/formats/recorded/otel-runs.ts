import { buildRun, type RecordedRunFile } from '../../runs/index.ts';
import { FormatError } from '../format-error.ts';
import { nearOtel, readOtelTraces } from './otel-spans.ts';
import { spanToStep } from './span-step.ts';

/** One run per trace id, each a tree of steps (OTel GenAI and OpenInference share this). */
export function otelRuns(parsed: unknown, format: string): RecordedRunFile {
  const traces = readOtelTraces(parsed);
  if (traces.every((t) => t.spans.length === 0)) {
    // Say which envelope it is and where its spans should be, not only that there are none.
    throw new FormatError('', nearOtel(parsed) ?? 'the file holds no spans');
  }
  return { format, runs: traces.map((t) => buildRun({ id: t.traceId, steps: t.spans.map(spanToStep) })) };
}
