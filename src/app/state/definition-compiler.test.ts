/** The DefinitionCompiler alone, over the fake pool's compile (src/app/testing/fake-pool.ts). */
import { describe, expect, it } from 'vitest';
import type { Study } from '../importing/study.ts';
import { FakePool, fakeSummary } from '../testing/fake-pool.ts';
import { DefinitionCompiler, studyCompletedBy } from './definition-compiler.svelte.ts';

const SOURCE = 'export default { name: "refund", ... }\n// steps: plan, act';

function study(source: string | null, cases: string[] = ['q1']): Study {
  return { fileName: 'refund.trace.json', name: 'refund', ...(source !== null && { pipeline: { name: 'opened-as', source } }), cases: cases.map((id) => ({ id, inputs: {} })), games: [] };
}

function setup() {
  const pool = new FakePool();
  return { pool, compiler: new DefinitionCompiler((source, fileName) => pool.load(source, fileName)) };
}

describe('DefinitionCompiler', () => {
  it('shows the definition loading, then ready with its summary', async () => {
    const { pool, compiler } = setup();
    const compiled = compiler.compile(study(SOURCE), () => true);
    expect(compiler.definition.status).toBe('loading');
    expect(await compiled).toEqual(fakeSummary(SOURCE));
    expect(compiler.definition).toEqual({ status: 'ready', summary: fakeSummary(SOURCE) });
    expect(compiler.summary?.steps.map((s) => s.name)).toEqual(['plan', 'act']);
    expect(pool.loads).toEqual([SOURCE]);
  });

  it('says why a definition does not compile, and that a study without one has none', async () => {
    const { compiler } = setup();
    expect(await compiler.compile(study('syntax error'), () => true)).toBe('failed');
    expect(compiler.definition).toMatchObject({ status: 'error', problem: { message: 'Unexpected token (1:7)', line: 1 } });
    expect(compiler.summary).toBeNull();
    expect(await compiler.compile(study(null), () => true)).toBe('none');
    expect(compiler.definition).toEqual({ status: 'none' });
  });

  it('takes the outcome of compiling just now without compiling again', async () => {
    const { pool, compiler } = setup();
    expect(await compiler.compile(study(SOURCE), () => true, { ok: true, summary: fakeSummary(SOURCE, { name: 'given' }) })).toMatchObject({ name: 'given' });
    expect(pool.loads).toEqual([]);
  });

  it('leaves the definition alone when the study moved on while it compiled', async () => {
    const { compiler } = setup();
    expect(await compiler.compile(study(SOURCE), (source) => source !== SOURCE)).toBe('superseded');
    expect(compiler.definition.status).toBe('loading');
  });

  it('compiles an edit first: one that compiles is answered, one that does not keeps the working definition and says why', async () => {
    const { compiler } = setup();
    await compiler.compile(study(SOURCE), () => true);
    const edit = 'export default { name: "edited" }\n// steps: a';
    expect(await compiler.compileEdit(study(edit), edit, () => true)).toMatchObject({ ok: true, summary: { name: 'edited' } });
    expect(await compiler.compileEdit(study('syntax error'), 'syntax error', () => true)).toBeNull();
    expect(compiler.editProblem).toMatchObject({ message: 'Unexpected token (1:7)' });
    expect(compiler.definition).toEqual({ status: 'ready', summary: fakeSummary(SOURCE) });
    // An edit whose study closed meanwhile says nothing.
    compiler.clear();
    expect(await compiler.compileEdit(study('syntax error'), 'syntax error', () => false)).toBeNull();
    expect(compiler.editProblem).toBeNull();
    expect(compiler.definition).toEqual({ status: 'none' });
  });

  it('completes the study: the definition\'s own name, and its own cases when the study has none', () => {
    const summary = fakeSummary(SOURCE, { cases: [{ id: 'own', inputs: {} }] });
    expect(studyCompletedBy(study(SOURCE), summary)).toMatchObject({ pipeline: { name: 'refund' }, cases: [{ id: 'q1' }] });
    expect(studyCompletedBy(study(SOURCE, []), summary).cases).toEqual([{ id: 'own', inputs: {} }]);
    const same = { ...study(SOURCE), pipeline: { name: 'refund', source: SOURCE } };
    expect(studyCompletedBy(same, fakeSummary(SOURCE))).toBe(same);
  });
});
