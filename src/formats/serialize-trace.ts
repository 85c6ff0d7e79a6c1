import type { CaseDef } from '../engine/types.ts';
import type { TraceFile } from './trace.ts';

/** A case as a JSON object with its fields in the documented order and absent fields left out. */
function caseToJson(c: CaseDef): string {
  return JSON.stringify({
    id: c.id,
    inputs: c.inputs,
    ...(c.seed === undefined ? {} : { seed: c.seed }),
    ...(c.observed === undefined ? {} : { observed: c.observed }),
    ...(c.outputs === undefined ? {} : { outputs: c.outputs }),
    ...(c.score === undefined ? {} : { score: c.score }),
  });
}

function headerToJson(trace: TraceFile): string {
  return JSON.stringify({
    format: trace.format,
    version: trace.version,
    ...(trace.pipeline === undefined ? {} : { pipeline: trace.pipeline }),
  });
}

/**
 * Writes a trace that parseTrace reads back to an equal value. The JSON form puts `format` first
 * (so importers can sniff it from the opening bytes) and one case per line (diffable, and compact
 * for large traces); the JSONL form is the header line followed by one case per line.
 * Case inputs and outputs must be JSON data (as they are when the trace came from parseTrace).
 */
export function serializeTrace(trace: TraceFile, options: { jsonl?: boolean } = {}): string {
  if (options.jsonl === true) {
    return [headerToJson(trace), ...trace.cases.map(caseToJson)].join('\n') + '\n';
  }
  const lines = [
    '{',
    `  "format": ${JSON.stringify(trace.format)},`,
    `  "version": ${JSON.stringify(trace.version)},`,
    ...(trace.pipeline === undefined ? [] : [`  "pipeline": ${JSON.stringify(trace.pipeline)},`]),
  ];
  if (trace.cases.length === 0) {
    lines.push('  "cases": []');
  } else {
    lines.push('  "cases": [');
    trace.cases.forEach((c, index) => lines.push(`    ${caseToJson(c)}${index < trace.cases.length - 1 ? ',' : ''}`));
    lines.push('  ]');
  }
  lines.push('}');
  return lines.join('\n') + '\n';
}
