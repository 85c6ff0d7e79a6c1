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

  it('counts the tokens of one model call wrapped in several LLM spans once, on the outermost', () => {
    const usage = { input: 100, output: 7 };
    const run = buildRun({
      id: 'r',
      steps: [
        step('agent', null, { kind: 'agent', start: 0 }),
        step('call_llm', 'agent', { kind: 'llm', usage, start: 1 }),
        step('generate', 'call_llm', { kind: 'llm', usage, start: 2 }),
        step('openai.chat', 'generate', { kind: 'llm', usage, start: 3 }),
        step('tool', 'generate', { kind: 'tool', start: 4 }),
        step('second', 'agent', { kind: 'llm', usage: { input: 5, output: 1 }, start: 5 }),
      ],
    });
    expect(run.steps.map((s) => s.usage)).toEqual([null, usage, null, null, null, { input: 5, output: 1 }]);
    expect(run.steps.find((s) => s.id === 'openai.chat')!.wrappedUsage).toEqual(usage);
    expect(runUsage(run)).toEqual({ input: 105, output: 8 });
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
