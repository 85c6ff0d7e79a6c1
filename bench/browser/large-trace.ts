/**
 * A large trace for the import benchmark: `cases` cases of the stochastic RAG demo (its factual
 * runs recorded, as the demo traces are), each carrying a padding input of plain text so the file
 * reaches about `targetBytes`. The padding is a case input no step reads, like the long context
 * a real trace would carry.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { serializeTrace, TRACE_FORMAT, TRACE_VERSION } from '../../src/formats/index.ts';
import { recordCase } from '../../src/demos/demo-trace.ts';
import { compileChecked } from '../../src/sandbox/analyze-source.ts';
import { DEMO_DIR } from '../lib/demos.ts';

const WORDS = ['policy', 'retrieval', 'answer', 'passage', 'gateway', 'backup', 'retention', 'console', 'upload', 'limit', 'audit', 'network'];

export function largeTraceText(cases: number, targetBytes: number): string {
  const source = readFileSync(resolve(DEMO_DIR, 'stochastic-rag.pipeline.js'), 'utf8');
  const def = compileChecked(source, 'stochastic-rag.pipeline.js');
  const base = def.cases ?? [];
  if (base.length === 0) throw new Error('stochastic-rag.pipeline.js lists no cases');
  const recorded = Array.from({ length: cases }, (_, k) => {
    const c = base[k % base.length];
    return recordCase(def, { id: `large-${k}`, inputs: c.inputs, seed: 700_000 + k });
  });
  const bare = serializeTrace({ format: TRACE_FORMAT, version: TRACE_VERSION, pipeline: { name: def.name, source }, cases: recorded });
  const perCase = Math.max(0, Math.floor((targetBytes - bare.length) / cases) - 16);
  const withContext = recorded.map((c, k) => ({ ...c, inputs: { ...c.inputs, context: padding(perCase, k) } }));
  return serializeTrace({ format: TRACE_FORMAT, version: TRACE_VERSION, pipeline: { name: def.name, source }, cases: withContext });
}

function padding(length: number, seed: number): string {
  let out = '';
  let i = seed;
  while (out.length < length) {
    out += WORDS[i % WORDS.length] + ' ';
    i = (i * 7 + 3) % 1009;
  }
  return out.slice(0, length);
}
