import { opensWithJsonFormat, type Importer } from '../importer.ts';
import { parseTrace, TRACE_FORMAT } from '../trace.ts';

/** `agentblame-trace` files, JSON or JSONL (docs/formats.md, "Trace files"). */
export const traceImporter: Importer = {
  label: 'agentblame-trace (JSON or JSONL)',
  jsonFormat: TRACE_FORMAT,
  sniff: (text) => opensWithJsonFormat(text, TRACE_FORMAT),
  import: (text) => ({ kind: 'trace', trace: parseTrace(text) }),
};
