import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../engine/settings.ts';
import { readLangfuse } from '../../formats/importers/langfuse.ts';
import { analyzeWithModel } from '../../replay/testing/model-loop.ts';
import { ReplaySetup } from './replay-setup.svelte.ts';
import { scripted, tripExport } from './testing/trip-run.ts';

/** The page's e2e run, analysed in this process as the page's setup builds it: the planted turn must rank first. */
describe('the e2e test\'s recorded run', () => {
  it('blames the researcher\'s answer, and only it, with the expected answer set as the page sets it', () => {
    const run = readLangfuse(tripExport()).runs[0];
    const setup = new ReplaySetup(run, 'trip.langfuse.json');
    setup.expect = '/monday/i';
    expect(setup.result.ok).toBe(true);
    if (!setup.result.ok) return;
    const { definition } = setup.result;
    expect(definition.runs[0].turns.map((t) => [t.kind, t.agent])).toEqual([
      ['model', 'Planner'],
      ['model', 'Researcher'],
      ['tool', 'Researcher'],
      ['model', 'Researcher'],
      ['model', 'Writer'],
    ]);
    const { result, sent } = analyzeWithModel(definition.source, definition.cases[0], { ...DEFAULT_SETTINGS, method: 'exact', models: { default: 'scripted' } }, scripted);
    expect(result.error).toBeUndefined();
    const answer = definition.steps[2];
    expect(answer).toMatch(/Researcher$/);
    // v(S) = 1 exactly when the researcher's answer is fixed: all the credit is its.
    expect(result.shapley).toEqual(Object.fromEntries(definition.steps.map((s) => [s, s === answer ? 1 : 0])));
    expect(new Set(sent.map((r) => JSON.stringify(r))).size).toBe(sent.length);
  });
});
