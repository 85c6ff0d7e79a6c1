/**
 * AuditState: a dropped credit file audited against the study's results, with the audit run
 * in-process (what the audit worker runs: parse the credit file, audit the analysed failures), or
 * by a test's own stand-in where the order of answers matters.
 */
import { describe, expect, it } from 'vitest';
import { isAnalysedFailure } from '../../engine/case-result.ts';
import { auditStudy } from '../../engine/audit/audit-study.ts';
import { testResult } from '../../engine/testing/results.ts';
import type { CaseResult } from '../../engine/types.ts';
import { parseCreditFile } from '../../formats/credit-file.ts';
import { settle } from '../testing/settle.ts';
import type { AuditOutcome } from './audit.worker.ts';
import { AuditState } from './audit-state.svelte.ts';

async function inProcess(text: string | null, results: CaseResult[], seed: number): Promise<AuditOutcome> {
  try {
    return { ok: true, audit: auditStudy(results.filter(isAnalysedFailure), text === null ? {} : parseCreditFile(text, results), seed) };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

const players = ['plan', 'act'];
const results: (CaseResult | undefined)[] = [
  testResult({ id: 'c1', players, shapley: { plan: 1, act: 0 }, fixAlone: { plan: 1, act: 0 }, factualOutputs: { plan: 'p', act: 'a' } }),
  undefined,
  testResult({ id: 'c3', players, shapley: { plan: 0.2, act: 0.8 }, fixAlone: { plan: 0, act: 1 } }),
  testResult({ id: 'c4', players, failed: false, factualOutputs: { plan: 'p', act: 'a' } }),
];
const credit = (signals: unknown) => new Blob([JSON.stringify({ format: 'agentblame-credit', signals })]);

describe('AuditState', () => {
  it('audits a credit file against the finished results', async () => {
    const state = new AuditState(inProcess);
    expect(state.status).toBe('idle');
    const opening = state.open(credit({ judge: { c1: { plan: 0.9, act: 0.1 }, c3: { plan: 0.1, act: 0.9 } } }), 'judge.json', results, 3);
    expect([state.status, state.fileName, state.error]).toEqual(['running', 'judge.json', null]);
    await opening;
    expect(state.status).toBe('done');
    expect(state.audit?.seed).toBe(3);
    expect(state.audit?.signals.map((s) => s.name)).toContain('judge');
  });

  it('names what is wrong with a credit file, and forgets the previous audit', async () => {
    const state = new AuditState(inProcess);
    await state.open(credit({ judge: { c1: { plan: 1 } } }), 'good.json', results, 1);
    expect(state.audit).not.toBeNull();
    await state.open(credit({ judge: { c9: { plan: 1 } } }), 'bad.json', results, 1);
    expect(state.status).toBe('error');
    expect(state.audit).toBeNull();
    expect(state.fileName).toBe('bad.json');
    expect(state.error).toMatch(/^signals\.judge\.c9: no case "c9" in the study/);
  });

  it('keeps the later file when an earlier one answers last', async () => {
    const answers: ((outcome: AuditOutcome) => void)[] = [];
    const state = new AuditState(() => new Promise((resolve) => answers.push(resolve)));
    const first = state.open(credit({}), 'first.json', results, 1);
    const second = state.open(credit({}), 'second.json', results, 1);
    await settle(() => answers.length === 2, 'both audits asked for');
    answers[1]({ ok: false, error: 'second is wrong' });
    await second;
    answers[0]({ ok: false, error: 'first is wrong' });
    await first;
    expect([state.status, state.fileName, state.error]).toEqual(['error', 'second.json', 'second is wrong']);
  });

  it('sends the audit only the finished results, failures with the fields it reads', async () => {
    let sent: CaseResult[] = [];
    const state = new AuditState(async (_text, given) => {
      sent = given;
      return { ok: false, error: 'not audited' };
    });
    await state.open(credit({}), 'x.json', results, 1);
    expect(sent.map((r) => r.id)).toEqual(['c1', 'c3', 'c4']);
    // A failure keeps its outputs (the credit check reads them); a passed case does not need them.
    expect(sent[0].factualOutputs).toEqual({ plan: 'p', act: 'a' });
    expect(sent[2].factualOutputs).toBeUndefined();
  });

  it('audits the built-in signals with no credit file, one audit at a time, then the latest results asked for', async () => {
    const asked: { text: string | null; ids: string[] }[] = [];
    const answers: ((outcome: AuditOutcome) => void)[] = [];
    const state = new AuditState((text, given, seed) => {
      asked.push({ text, ids: given.map((r) => r.id) });
      return new Promise((resolve) => answers.push(() => void inProcess(text, given, seed).then(resolve)));
    });
    const first = state.builtin(results.slice(0, 1), 2);
    await settle(() => answers.length === 1, 'the first audit asked for');
    // Results arrive while it runs: neither starts an audit of its own; the last waits.
    void state.builtin(results.slice(0, 2), 2);
    const latest = state.builtin(results, 2);
    await latest;
    expect(asked).toHaveLength(1);
    answers[0]({ ok: false, error: 'unused' });
    await settle(() => answers.length === 2, 'the waiting audit asked for');
    answers[1]({ ok: false, error: 'unused' });
    await first;
    expect(asked).toEqual([{ text: null, ids: ['c1'] }, { text: null, ids: ['c1', 'c3', 'c4'] }]);
    expect(state.fileName).toBeNull();
    expect(state.audit?.signals.every((s) => s.builtin)).toBe(true);
    // Two failures are too few for a verdict, whatever the intervals say (a signal without a defined correlation stays undefined).
    const verdicts = state.audit!.signals.map((s) => s.verdict);
    expect(verdicts).toContain('too few cases');
    expect(verdicts.filter((v) => v !== 'too few cases' && v !== 'undefined')).toEqual([]);
  });

  it("leaves a dropped credit file's audit alone when more results arrive", async () => {
    const state = new AuditState(inProcess);
    await state.open(credit({ judge: { c1: { plan: 0.9, act: 0.1 } } }), 'judge.json', results, 3);
    await state.builtin(results, 3);
    expect(state.fileName).toBe('judge.json');
    expect(state.audit?.signals.map((s) => s.name)).toContain('judge');
  });
});
