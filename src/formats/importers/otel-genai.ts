import { isOtelDocument } from '../recorded/shapes.ts';
import type { Importer } from '../importer.ts';
import { parseJsonKeepingBigInts } from '../recorded/big-int-json.ts';
import { otelRuns } from '../recorded/otel-runs.ts';
import { looksLikeOtel } from '../recorded/sniff.ts';
import { OTEL_SHAPES } from '../recorded/otel-spans.ts';

/**
 * OpenTelemetry GenAI spans (FORMATS.md §2): OTLP/JSON (hex or base64 ids, one request or an
 * array), Tempo's `batches`, Jaeger's `data[].spans` and the console exporter's list.
 */
export const otelGenaiImporter: Importer = {
  label: 'OpenTelemetry GenAI spans (OTLP/JSON, Tempo, Jaeger, console exporter)',
  sniff: (text) => looksLikeOtel(text),
  recognize: (parsed) => isOtelDocument(parsed),
  shapes: OTEL_SHAPES,
  import: (text) => ({ kind: 'runs', runs: otelRuns(parseJsonKeepingBigInts(text), 'otel-genai') }),
};
