/** The shipped demo traces (public/demos), read through the workbench's own importer and sandbox. */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CaseDef, PipelineDef } from '../../src/engine/types.ts';
import type { ValidPipeline } from '../../src/engine/pipeline.ts';
import { parseInputFile } from '../../src/formats/index.ts';
import { compileChecked } from '../../src/sandbox/analyze-source.ts';

export const DEMO_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../public/demos');

export type DemoName = 'refund-policy' | 'refund-policy-b' | 'stochastic-rag' | 'eight-step-agent';

export interface LoadedDemo {
  name: DemoName;
  /** The definition's source text, as embedded in the trace. */
  source: string;
  /** The recorded cases of the trace (with observed choices, outputs and scores). */
  cases: CaseDef[];
  /** Compiled in the SES sandbox (what the workbench and the CLI run). */
  sandboxed(): ValidPipeline;
  /** The same file imported as a plain ES module, outside any sandbox (for the overhead study). */
  plain(): Promise<PipelineDef>;
}

const loaded = new Map<DemoName, LoadedDemo>();

export function loadDemo(name: DemoName): LoadedDemo {
  const known = loaded.get(name);
  if (known) return known;
  const file = `${name}.trace.json`;
  const input = parseInputFile(readFileSync(resolve(DEMO_DIR, file), 'utf8'), file);
  if (input.kind !== 'trace') throw new Error(`${file}: expected an agentblame-trace, got a ${input.kind} file`);
  const source = input.trace.pipeline?.source;
  if (source === undefined) throw new Error(`${file}: the trace carries no pipeline source`);
  let compiled: ValidPipeline | undefined;
  const demo: LoadedDemo = {
    name,
    source,
    cases: input.trace.cases,
    sandboxed: () => (compiled ??= compileChecked(source, `${name}.pipeline.js`)),
    plain: async () => (await import(resolve(DEMO_DIR, `${name}.pipeline.js`))).default as PipelineDef,
  };
  loaded.set(name, demo);
  return demo;
}
