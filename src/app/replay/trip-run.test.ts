import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../engine/settings.ts';
import { readLangfuse } from '../../formats/importers/langfuse.ts';
import { readWhoWhen } from '../../formats/importers/whowhen.ts';
import { analyzeWithModel } from '../../replay/testing/model-loop.ts';
import { ReplaySetup } from './replay-setup.svelte.ts';
import { scripted, tripExport, tripWhoWhenLog } from './testing/trip-run.ts';

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

describe('the e2e test\'s Who&When log', () => {
  it('blames the researcher with the recorded correct answer as the outcome (no outcome typed)', () => {
    const setup = new ReplaySetup(readWhoWhen(tripWhoWhenLog(), 'trip-1.json').runs[0], 'trip-1.json');
    expect(setup.result.ok).toBe(true);
    if (!setup.result.ok) return;
    const { definition } = setup.result;
    const { result, sent } = analyzeWithModel(definition.source, definition.cases[0], { ...DEFAULT_SETTINGS, method: 'exact', models: { default: 'scripted' } }, scripted);
    expect(result.error).toBeUndefined();
    expect(definition.steps).toEqual(['1 Planner', '2 Researcher', '3 Writer']);
    expect(result.shapley).toEqual({ '1 Planner': 0, '2 Researcher': 1, '3 Writer': 0 });
    expect(new Set(sent.map((r) => JSON.stringify(r))).size).toBe(sent.length);
  });
});
