import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readRuntape } from '../../formats/importers/runtape.ts';
import { WhyRun } from './why-run.svelte.ts';
import { selectionProblem, whyProblem } from './why-problem.ts';

describe('whyProblem', () => {
  const ok = { call: { predicate: 'x' }, hasModel: true, urlProblem: null, model: 'm' };

  it('points an endpoint problem at the panel\'s own Endpoint field, never the Model panel', () => {
    const message = whyProblem({ ...ok, urlProblem: 'Set the base URL of an OpenAI-compatible endpoint.' });
    expect(message).toBe('Endpoint (above): Set the base URL of an OpenAI-compatible endpoint.');
    expect(message).not.toMatch(/Model panel/);
  });

  it('gives the call\'s own reason first, then the missing connection, then the missing model id', () => {
    expect(whyProblem({ ...ok, call: 'Step 3 is not a model call.', urlProblem: 'bad' })).toBe('Step 3 is not a model call.');
    expect(whyProblem({ ...ok, hasModel: false, urlProblem: 'bad' })).toBe('No model connection in this page.');
    expect(whyProblem({ ...ok, model: '' })).toBe('This step records no model: name one.');
    expect(whyProblem(ok)).toBeNull();
  });
});

describe('selectionProblem', () => {
  it('speaks the page\'s words: the Match field, never the command\'s flags', () => {
    const run = readRuntape(readFileSync(new URL('../../cli/fixtures/why-inbox.runtape.jsonl', import.meta.url), 'utf8')).runs[0];
    // The recorded call forwards to outside-payments: another pattern, a broken one, and a step with no tool call.
    const mismatch = WhyRun.select(run, 3, 'zzz');
    const broken = WhyRun.select(run, 3, '(');
    expect(mismatch).toBe('Match: step 3: the recorded answer does not match the decision (calls forward_email with arguments matching /zzz/)');
    expect(broken).toMatch(/^Match: "\(" is not a regular expression/);
    for (const m of [mismatch, broken, WhyRun.select(run, 0, '')]) expect(m).not.toMatch(/--[a-z]/);
    expect(selectionProblem(new Error('plain'))).toBe('plain');
  });
});
