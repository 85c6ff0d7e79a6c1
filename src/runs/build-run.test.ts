import { describe, expect, it } from 'vitest';
import { buildRun, runUsage } from './build-run.ts';
import type { StepDraft } from './types.ts';

function step(id: string, parent: string | null, extra: Partial<StepDraft> = {}): StepDraft {
  return { id, parent, name: id, kind: 'other', start: null, end: null, model: null, usage: null, error: null, attributes: {}, ...extra };
}

describe('buildRun', () => {
  it('orders depth first, siblings by start, then end, then id', () => {
    const run = buildRun({
      id: 'r',
      steps: [step('c', 'root', { start: 5, end: 9 }), step('b', 'root', { start: 1, end: 9 }), step('a', 'root', { start: 1, end: 4 }), step('b1', 'b', { start: 2 }), step('root', null, { start: 0, end: 10 }), step('z', 'root', { start: 5, end: 9 })],
    });
    expect(run.steps.map((s) => `${s.id}@${s.depth}`)).toEqual(['root@0', 'a@1', 'b@1', 'b1@2', 'c@1', 'z@1']);
    expect(run.name).toBe('root');
  });

  it('keeps the recorded order where times are absent (ids "10" and "2" are not sorted as text)', () => {
    const run = buildRun({ id: 'r', steps: ['0', '1', '2', '10', '11'].map((id, order) => step(id, null, { order })) });
    expect(run.steps.map((s) => s.id)).toEqual(['0', '1', '2', '10', '11']);
  });

  it('keeps a step whose parent is missing, as a root that remembers its parent', () => {
    const run = buildRun({ id: 'r', steps: [step('a', null, { start: 0 }), step('orphan', 'gone', { start: 1 }), step('kid', 'orphan', { start: 2 })] });
    const orphan = run.steps.find((s) => s.id === 'orphan')!;
    expect(orphan.parent).toBeNull();
    expect(orphan.detached).toEqual({ parent: 'gone', reason: 'missing' });
    expect(run.steps.find((s) => s.id === 'kid')!.parent).toBe('orphan');
    expect(run.steps).toHaveLength(3);
  });

  it('breaks a cycle instead of following it, and a self-parent is a root', () => {
    const run = buildRun({ id: 'r', steps: [step('x', 'y', { start: 2 }), step('y', 'x', { start: 1 }), step('self', 'self', { start: 3 })] });
    expect(run.steps.map((s) => s.id)).toEqual(['self', 'y', 'x']);
    expect(run.steps[1]).toMatchObject({ parent: null, depth: 0, detached: { parent: 'x', reason: 'cycle' } });
    expect(run.steps[2]).toMatchObject({ parent: 'y', depth: 1 });
  });

  it('walks a chain 20000 deep without overflowing the stack', () => {
    const steps = Array.from({ length: 20000 }, (_, i) => step(`s${i}`, i === 0 ? null : `s${i - 1}`, { start: i }));
    const run = buildRun({ id: 'r', steps });
    expect(run.steps.at(-1)!.depth).toBe(19999);
  });

  it("counts the tokens of one model call wrapped in several LLM spans once, on the innermost (the provider's count)", () => {
    // An Agno-style wrapper estimating 399 output tokens around the provider's call that reports 7.
    const estimate = { input: 120, output: 399 };
    const provider = { input: 100, output: 7 };
    const run = buildRun({
      id: 'r',
      steps: [
        step('agent', null, { kind: 'agent', start: 0 }),
        step('OpenAIChat.invoke', 'agent', { kind: 'llm', usage: estimate, start: 1 }),
        step('generate', 'OpenAIChat.invoke', { kind: 'llm', start: 2 }),
        step('chat gpt-4o-mini', 'generate', { kind: 'llm', usage: provider, start: 3 }),
        step('tool', 'generate', { kind: 'tool', start: 4 }),
        step('second', 'agent', { kind: 'llm', usage: { input: 5, output: 1 }, start: 5 }),
      ],
    });
    expect(run.steps.map((s) => s.usage)).toEqual([null, null, null, provider, null, { input: 5, output: 1 }]);
    expect(run.steps.find((s) => s.id === 'OpenAIChat.invoke')!.wrappedUsage).toEqual(estimate);
    expect(runUsage(run)).toEqual({ input: 105, output: 8 });
  });

  it('keeps each inner call when one wrapper spans two provider calls (the wrapper holds their sum)', () => {
    const run = buildRun({
      id: 'r',
      steps: [
        step('ai.generateText', null, { kind: 'llm', usage: { input: 30, output: 9 }, start: 0 }),
        step('doGenerate 1', 'ai.generateText', { kind: 'llm', usage: { input: 10, output: 4 }, start: 1 }),
        step('doGenerate 2', 'ai.generateText', { kind: 'llm', usage: { input: 20, output: 5 }, start: 2 }),
      ],
    });
    expect(runUsage(run)).toEqual({ input: 30, output: 9 });
    expect(run.steps[0].usage).toBeNull();
    expect(run.steps[0].wrappedUsage).toEqual({ input: 30, output: 9 });
  });

  it('gives 20 000 steps of one repeated id distinct ids (a suffix each) without trying every earlier suffix', () => {
    const steps = Array.from({ length: 20000 }, (_, i) => step('dup', null, { start: i }));
    steps.push(step('dup#3', null, { start: 20000 }));
    const run = buildRun({ id: 'r', steps });
    const ids = run.steps.map((s) => s.id);
    expect(new Set(ids).size).toBe(20001);
    expect(ids.slice(0, 3)).toEqual(['dup', 'dup#2', 'dup#3']);
    expect(ids).toContain('dup#3#2');
  });

  it('gives repeated ids a suffix so each step stays addressable', () => {
    const run = buildRun({ id: 'r', steps: [step('a', null, { start: 0 }), step('a', null, { start: 1 })] });
    expect(run.steps.map((s) => s.id)).toEqual(['a', 'a#2']);
  });

  it('infers the status: failed root -> error, clean -> ok, inner failure -> unknown; a recorded status wins', () => {
    expect(buildRun({ id: 'r', steps: [step('a', null, { error: 'boom' })] }).status).toBe('error');
    expect(buildRun({ id: 'r', steps: [step('a', null, { start: 0, end: 1 }), step('b', 'a', { start: 0, end: 1 })] }).status).toBe('ok');
    expect(buildRun({ id: 'r', steps: [step('a', null, { start: 0, end: 1 }), step('b', 'a', { error: 'x', start: 0, end: 1 })] }).status).toBe('unknown');
    expect(buildRun({ id: 'r', steps: [step('a', null, { error: 'boom' })], status: 'ok' }).status).toBe('ok');
  });
});
