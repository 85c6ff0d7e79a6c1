import { validatePipeline, type ValidPipeline } from './pipeline.ts';
import { describe, expect, it } from 'vitest';
import { analyzeCase } from './analyze.ts';
import { factualRun } from './factual-run.ts';
import { DEFAULT_SETTINGS } from './settings.ts';
import type { CaseDef, PipelineDef } from './types.ts';
import { gumbelRetriever } from './testing/gumbel-retriever.ts';

/** One sampled step: the retriever picks a document with Gumbel-max; the answer is right on "gold". */
const def = validatePipeline({
  name: 'sampled',
  steps: [
    gumbelRetriever('q', { gold: 0, stale: 1.5 }, { gold: 3, stale: 0 }),
  ],
  metric: (out) => (out.retriever === 'gold' ? 1 : 0),
});

/** A case whose recorded run failed, with the trace a recorder would write for it. */
function recordedFailure(): CaseDef {
  for (let seed = 1; ; seed++) {
    const c: CaseDef = { id: `q${seed}`, inputs: { q: 'refund window?' }, seed };
    const run = factualRun(def, c);
    if (run.score === 0) return { ...c, observed: run.observed, outputs: run.outputs, score: run.score };
  }
}

describe('the record is checked against the replay', () => {
  const c = recordedFailure();

  it('reports nothing when the trace matches, in recorded and posterior modes', () => {
    expect(c.observed).toEqual({ retriever: { doc: 'stale' } });
    for (const mode of ['recorded', 'posterior'] as const) expect(analyzeCase(def, c, { ...DEFAULT_SETTINGS, mode }).mismatches).toBeUndefined();
  });

  it('names an observed draw key the replay never uses', () => {
    const misspelt = { ...c, observed: { retriever: { document: 'stale' } } };
    expect(analyzeCase(def, misspelt, DEFAULT_SETTINGS).mismatches).toEqual([
      'observed.retriever.document: recorded "stale", but the replay never draws it (check the step name and draw key)',
    ]);
    expect(analyzeCase(def, misspelt, { ...DEFAULT_SETTINGS, mode: 'posterior' }).mismatches).toEqual([
      'observed.retriever.document: recorded "stale", but the replay never draws it, so nothing was abducted from it (check the step name and draw key)',
    ]);
  });

  it('names a recorded choice the replay of the recorded world does not make', () => {
    const other = { ...c, observed: { retriever: { doc: 'gold' } } };
    expect(analyzeCase(def, other, DEFAULT_SETTINGS).mismatches).toEqual(['observed.retriever.doc: recorded "gold", replay chose "stale"']);
  });

  it('checks recorded outputs against the first abducted world in posterior mode', () => {
    const wrongOutput = { ...c, outputs: { retriever: 'gold' } };
    expect(analyzeCase(def, wrongOutput, { ...DEFAULT_SETTINGS, mode: 'posterior' }).mismatches).toEqual(['outputs.retriever: recorded "gold", replay "stale"']);
  });
});
