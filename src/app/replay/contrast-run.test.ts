import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../engine/settings.ts';
import { readLangfuse } from '../../formats/importers/langfuse.ts';
import { analyzeWithModel } from '../../replay/testing/model-loop.ts';
import type { CaseResult } from '../../engine/types.ts';
import type { ModelAnswer } from '../../engine/model-call.ts';
import { analyzeSourceCaseRound } from '../../sandbox/analyze-source.ts';
import { ContrastRun, type AnalyseCases } from './contrast-run.svelte.ts';
import { ReplaySetup } from './replay-setup.svelte.ts';
import { scripted, tripExport } from './testing/trip-run.ts';

/** The contrast replays analysed in this process against the scripted model. */
const inProcess: AnalyseCases = async (job, _signal, onResult) => {
  const results: CaseResult[] = [];
  for (const caseDef of job.cases) {
    results.push(analyzeWithModel(job.source, caseDef, job.settings, scripted).result);
    onResult(results.length);
  }
  return results;
};

function tripDefinition() {
  const setup = new ReplaySetup(readLangfuse(tripExport()).runs[0], 'trip.langfuse.json');
  setup.expect = '/monday/i';
  if (!setup.result.ok) throw new Error(setup.result.problem);
  return setup.result.definition;
}

describe('the page\'s single-step contrast', () => {
  it('reports each model turn regenerated against kept, and the point of commitment', async () => {
    const contrast = new ContrastRun(inProcess);
    await contrast.run(tripDefinition(), 2, { ...DEFAULT_SETTINGS, models: { default: 'scripted' } });
    expect(contrast.state.status).toBe('done');
    if (contrast.state.status !== 'done') return;
    const { report } = contrast.state;
    // The scripted model is deterministic: regenerating from the researcher's answer on (or from
    // any turn before it) reads the page right and succeeds; keeping that answer keeps the failure.
    expect(report.contrast.map((r) => [r.agent, r.regenerated.rate, r.kept.rate])).toEqual([
      ['Planner', 0, 0],
      ['Researcher', 0, 0],
      ['Researcher', 0, 1],
      ['Writer', 1, 1],
    ]);
    expect(report.contrast.every((r) => r.regenerated.n === 2 && r.kept.n === 2)).toBe(true);
    // With 2 replays a rate of 1 has a Wilson lower bound of 0.342 (below 0.9): no commitment yet.
    expect(report.commitment).toBeNull();
    expect(report.errors).toBe(0);
  });

  it('finds the point of commitment when enough replays agree', async () => {
    const contrast = new ContrastRun(inProcess);
    // Wilson's lower bound for 40 failures in 40 is 0.912 (z = 1.96: 40 / (40 + 3.8415)), above 1 - 0.1.
    await contrast.run(tripDefinition(), 40, { ...DEFAULT_SETTINGS, models: { default: 'scripted' } });
    expect(contrast.state.status === 'done' && contrast.state.report.commitment?.agent).toBe('Researcher');
  });

  it('hands a finished contrast to be kept with the study, and nothing when cancelled or refused', async () => {
    const kept: { run: string; n: number; commitment: unknown }[] = [];
    const contrast = new ContrastRun(inProcess, (run, n, report) => kept.push({ run, n, commitment: report.commitment }));
    const definition = tripDefinition();
    await contrast.run(definition, 2, { ...DEFAULT_SETTINGS, models: { default: 'scripted' } });
    expect(kept).toEqual([{ run: definition.runs[0].id, n: 2, commitment: null }]);
    await contrast.run(definition, 0, DEFAULT_SETTINGS);
    expect(kept).toHaveLength(1);
  });

  it('says what the failed replays said, in the page\'s words (no flag of the command)', async () => {
    // The page's model host, with no endpoint and an empty cache, answers every request so (model-host.ts).
    const noEndpoint = 'no cached response for this request (step 2), and no model endpoint is set up to ask (the command: --model-url URL; the page: Settings > Model)';
    const unanswered: AnalyseCases = async (job) =>
      job.cases.map((caseDef) => {
        const answers = new Map<string, ModelAnswer>();
        for (let round = 0; round < 50; round++) {
          const r = analyzeSourceCaseRound(job.source, caseDef, job.settings, answers, {}, 'replay.js');
          if (r.kind === 'result') return r.result;
          for (const p of r.requests) answers.set(p.key, { error: noEndpoint });
        }
        throw new Error('too many rounds');
      });
    const contrast = new ContrastRun(unanswered);
    await contrast.run(tripDefinition(), 1, DEFAULT_SETTINGS);
    expect(contrast.state.status).toBe('done');
    if (contrast.state.status !== 'done') return;
    expect(contrast.state.report.errors).toBeGreaterThan(0);
    expect(contrast.state.firstError).toMatch(/no model endpoint is set up to ask \(Settings > Model\)$/);
    expect(contrast.state.firstError).not.toContain('the command');
  });

  it('refuses a bad number of replays, naming the field', async () => {
    const contrast = new ContrastRun(inProcess);
    await contrast.run(tripDefinition(), 0, DEFAULT_SETTINGS);
    expect(contrast.state).toEqual({ status: 'error', message: 'Replays per arm: a whole number from 1 to 1000, got 0.' });
  });
});
