/**
 * A bare span attribute map (no envelope), as OTel GenAI and OpenInference test fixtures are
 * written: read as a run of one step, with the same mapping as spans in a trace.
 */
import { buildRun } from '../../runs/build-run.ts';
import type { Importer } from '../importer.ts';
import { expectObject } from '../validate.ts';
import { parseJsonKeepingBigInts } from '../recorded/big-int-json.ts';
import { attributeMap } from '../recorded/otel-attributes.ts';
import { opening } from '../recorded/sniff.ts';
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
  sniff: (text) => {
    const head = opening(text);
    return /^\{"[A-Za-z_.]+":("|-?\d|\[|true|false|null)/.test(head) && /[{,]"(gen_ai|llm|openinference)\.[a-z_.]+":/.test(head) && !head.includes('"format":"agentblame-');
  },
  import: (text) => ({ kind: 'runs', runs: readSpanAttributes(text) }),
};
