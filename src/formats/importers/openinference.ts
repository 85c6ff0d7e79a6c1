import { isOtelDocument } from '../recorded/shapes.ts';
import type { Importer } from '../importer.ts';
import { parseJsonKeepingBigInts } from '../recorded/big-int-json.ts';
import { otelRuns } from '../recorded/otel-runs.ts';
import { looksLikeOtel } from '../recorded/sniff.ts';

/**
 * OpenInference (Phoenix) spans (FORMATS.md §3): the OTLP envelope with the
 * `openinference.span.kind` vocabulary. Listed before OTel GenAI, which reads the same envelope.
 */
export const openinferenceImporter: Importer = {
  label: 'OpenInference spans (OTLP/JSON)',
  sniff: (text) => looksLikeOtel(text) && text.includes('"openinference.span.kind"'),
  recognize: (parsed, text) => isOtelDocument(parsed) && text.includes('"openinference.span.kind"'),
  import: (text) => ({ kind: 'runs', runs: otelRuns(parseJsonKeepingBigInts(text), 'openinference') }),
};
