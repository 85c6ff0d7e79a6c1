/**
 * A bare span attribute map (no envelope), as OTel GenAI and OpenInference test fixtures are
 * written: read as a run of one step, with the same mapping as spans in a trace.
 */
import { buildRun } from '../../runs/index.ts';
import { isSpanAttributeMap } from '../recorded/shapes.ts';
import type { Importer } from '../importer.ts';
import { expectObject } from '../validate.ts';
import { parseJsonKeepingBigInts } from '../recorded/big-int-json.ts';
import { attributeMap } from '../recorded/otel-attributes.ts';
import { spanToStep } from '../recorded/span-step.ts';

function stepName(a: Record<string, unknown>): string {
  const parts = [a['gen_ai.operation.name'] ?? a['openinference.span.kind'], a['gen_ai.tool.name'] ?? a['tool.name'] ?? a['gen_ai.request.model'] ?? a['llm.model_name']];
  return parts.filter((p): p is string => typeof p === 'string').join(' ') || 'span';
}

export function readSpanAttributes(text: string) {
  const attributes = Object.assign(attributeMap(), expectObject(parseJsonKeepingBigInts(text), '(top level)'));
  const step = spanToStep({ id: 'span', parent: null, name: stepName(attributes), start: null, end: null, attributes, failed: false, events: [], path: '' });
  return { format: Object.hasOwn(attributes, 'openinference.span.kind') ? 'openinference' : 'otel-genai', runs: [buildRun({ id: 'span', steps: [step] })] };
}

export const spanAttributesImporter: Importer = {
  label: 'span attribute maps (OTel GenAI or OpenInference)',
  // Only by shape: a text check on the opening also matched a trace whose first span's attributes
  // came early (any-agent with another field first), so the parsed document must be flat.
  sniff: () => false,
  recognize: (parsed) => isSpanAttributeMap(parsed),
  import: (text) => ({ kind: 'runs', runs: readSpanAttributes(text) }),
};
