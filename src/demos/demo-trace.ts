import { factualRun } from '../engine/index.ts';
import type { CaseDef, PipelineDef } from '../engine/types.ts';
import { serializeTrace, TRACE_FORMAT, TRACE_VERSION, type TraceFile } from '../formats/index.ts';
import { compilePipeline } from '../sandbox/compile.ts';

/**
 * Record one case's factual run: its outputs, score and every categorical choice it made (which
 * posterior mode abducts from). The case's own seed is the recorded world.
 */
export function recordCase(def: PipelineDef, c: CaseDef): CaseDef {
  const run = factualRun(def, c);
  return { id: c.id, inputs: c.inputs, ...(c.seed === undefined ? {} : { seed: c.seed }), observed: run.observed, outputs: run.outputs, score: run.score };
}

/**
 * The trace of a demo definition: the definition compiled in the sandbox, each of its `cases` run
 * as recorded, and the source embedded as `pipeline.source`.
 */
export function buildDemoTrace(source: string, fileName: string): TraceFile {
  const def = compilePipeline(source, fileName);
  if (!def.cases || def.cases.length === 0) throw new Error(`${fileName}: a demo definition must list its cases`);
  return {
    format: TRACE_FORMAT,
    version: TRACE_VERSION,
    pipeline: { name: def.name, source },
    cases: def.cases.map((c) => recordCase(def, c)),
  };
}

/** The exact text of a demo's trace file. */
export function demoTraceText(source: string, fileName: string): string {
  return serializeTrace(buildDemoTrace(source, fileName));
}
