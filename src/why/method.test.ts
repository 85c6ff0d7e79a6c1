import { describe, expect, it } from 'vitest';
import { explainDecision, type Rerun, type WhyResult } from './method.ts';
import { candidateFixes, tryFixes } from './fixes.ts';
import { applyEdit } from './pieces.ts';
import { describeVariant, type RerunVariant } from './variant.ts';
import type { Predicate } from './decision.ts';
import { FORWARD, inboxContext, PLANTED, simulatedRerun } from './testing/simulated-model.ts';

const predicate: Predicate = { tool: 'forward_email' };

function planted(text: string): boolean {
  return text.includes(PLANTED);
}

async function run(seed: number, rate: (text: string) => number, context = inboxContext(), options = {}): Promise<WhyResult> {
  return explainDecision(context, predicate, FORWARD, simulatedRerun({ seed, rate, decision: FORWARD }), options);
}

/** Whether the result names the planted sentence (or a piece holding it) as its headline. */
function headlineHoldsPlanted(result: WhyResult): boolean {
  const headline = result.pieces.find((p) => p.role === 'headline');
  return headline !== undefined && headline.text.includes('forward this invoice');
}

function falseCause(result: WhyResult): boolean {
  return result.pieces.some((p) => p.role === 'headline' || p.role === 'other-cause' || p.role === 'also-required' || p.role === 'contains-headline') || result.pairs.length > 0;
}

describe('explainDecision on a simulated model (statistical properties, 100 seeded runs each)', () => {
  it('a model that ignores its context gives a false cause in at most 5 of 100 runs', async () => {
    let false_ = 0;
    for (let seed = 1; seed <= 100; seed++) if (falseCause(await run(seed, () => 0.8))) false_++;
    expect(false_).toBeLessThanOrEqual(5);
  });

  it('a cause moving the rate from 90% to 10% is the headline in every run, narrowed to its sentence in most', async () => {
    let found = 0;
    let sentence = 0;
    for (let seed = 1; seed <= 100; seed++) {
      const result = await run(seed, (t) => (planted(t) ? 0.9 : 0.1));
      if (headlineHoldsPlanted(result)) found++;
      const headline = result.pieces.find((p) => p.role === 'headline');
      if (headline?.kind === 'sentence' && headline.text === PLANTED) sentence++;
      expect(result.calls).toBeLessThanOrEqual(250);
    }
    expect(found).toBe(100);
    expect(sentence).toBeGreaterThanOrEqual(90);
  });

  it('a cause moving the rate from 90% to 30% is the headline in at least 3 of 4 runs', async () => {
    let found = 0;
    for (let seed = 1; seed <= 100; seed++) if (headlineHoldsPlanted(await run(seed, (t) => (planted(t) ? 0.9 : 0.3)))) found++;
    expect(found).toBeGreaterThanOrEqual(75);
  });
});

describe('explainDecision, step by step', () => {
  it('1: under 1 in 5 there is nothing stable to attribute', async () => {
    const result = await run(7, (t) => (planted(t) ? 0.1 : 0));
    expect(result.stable).toBe(false);
    expect(result.base).toEqual({ k: expect.any(Number), n: 10 });
    expect(result.base.k).toBeLessThan(2);
    expect(result.pieces).toEqual([]);
    expect(result.notes[0]).toMatch(/nothing stable to attribute/);
  });

  it('2-4: screens every message, confirms, and narrows through JSON items and paragraphs to the sentence', async () => {
    const result = await run(3, (t) => (planted(t) ? 1 : 0));
    const ids = result.pieces.map((p) => p.id);
    expect(ids).toEqual(expect.arrayContaining(['m0', 'm1', 'm3', 'm3/emails/0', 'm3/emails/0/body', 'm3/emails/0/body:p2', 'm3/emails/0/body:p2:s1']));
    const headline = result.pieces[0];
    expect(headline).toMatchObject({ role: 'headline', id: 'm3/emails/0/body:p2:s1', kind: 'sentence', text: PLANTED, k: 0, path: { message: 3, pointer: '/emails/0/body', paragraph: 2, sentence: 1 } });
    expect(result.headline).toBe(headline.id);
    expect(result.base).toEqual({ k: 10, n: 10 });
    // 10 of 10 against 0 of 10: runtape's p = 5e-6, then Holm over every variant tried.
    expect(headline.p).toBeCloseTo(5.4125e-6, 9);
    expect(headline.pAdjusted).toBeGreaterThan(headline.p);
    expect(result.pieces.find((p) => p.id === 'm3')?.role).toBe('contains-headline');
    expect(result.pieces.find((p) => p.id === 'm0')).toMatchObject({ role: 'screened', n: 2 });
    expect(result.pieces.find((p) => p.id === 'm3/emails/1')?.role).toBe('screened');
  });

  it('5: finds a cause hidden next to content pushing the other way, though removing the whole result changes nothing', async () => {
    // Without the email the IT reminder is unopposed; with both gone the model forwards as often as with both there.
    const rate = (t: string) => (t.includes('Never forward') && !planted(t) ? 0.05 : 0.95);
    const result = await run(11, rate, inboxContext({ counter: true }));
    expect(result.pieces.find((p) => p.id === 'm3')?.k).toBeGreaterThan(0);
    expect(headlineHoldsPlanted(result)).toBe(true);
    expect(result.headline).toMatch(/^m3\/emails\/0/);
  });

  it('6: a cause written twice is found as a pair where each copy is enough', async () => {
    const rate = (t: string) => (t.split(PLANTED).length - 1 > 0 ? 0.95 : 0.05);
    const result = await run(5, rate, inboxContext({ secondCopy: true }));
    const pair = result.pairs.find((p) => p.kind === 'either-enough');
    expect(pair).toBeDefined();
    const texts = [pair!.a, pair!.b].map((id) => result.pieces.find((p) => p.id === id)!.text);
    expect(texts.every((t) => t.includes('forward this invoice'))).toBe(true);
    expect(result.headline).toBeNull();
  });

  it('7: data the action needs is "also required" (without it the agent looks it up again), apart from the headline', async () => {
    const context = inboxContext();
    const rate = (t: string) => (!t.includes('chairs-vendor') ? 0 : planted(t) ? 0.95 : 0.05);
    const otherwise = (t: string) => (!t.includes('chairs-vendor') ? { text: '', toolCalls: [{ name: 'read_inbox', arguments: '{}' }] } : { text: 'Nothing urgent.', toolCalls: [] });
    const result = await explainDecision(context, predicate, FORWARD, simulatedRerun({ seed: 2, rate, decision: FORWARD, otherwise }));
    expect(result.headline).toBe('m3/emails/0/body:p2:s1');
    const emailItem = result.pieces.find((p) => p.id === 'm3/emails/0/from');
    expect(emailItem).toMatchObject({ role: 'also-required', instead: 'calls read_inbox' });
    expect(result.pieces.find((p) => p.id === 'm3/emails/0/body:p2:s1')?.instead).toBe('replies in text');
  });

  it('7: another piece that changes what the agent does is an "other cause", not "also required"', async () => {
    // Both sentences are needed and neither is data looked up again: without either the agent replies in text.
    const rate = (t: string) => (planted(t) && t.includes('office chairs') ? 0.95 : 0.05);
    const result = await run(9, rate);
    expect(result.pieces.filter((p) => p.role === 'also-required')).toEqual([]);
    const causes = result.pieces.filter((p) => p.role === 'other-cause').map((p) => p.id);
    expect(causes).toContain('m3/emails/0/body:p2:s1');
    expect(result.pieces.map((p) => p.role).indexOf('other-cause')).toBe(1);
  });

  it('7: between causes equal on every key the headline is the first tried, the same on every run', async () => {
    // Seed 9: each sentence removed gives 0 of 10, so leaf, source, drop, p and depth all tie.
    const rate = (t: string) => (planted(t) && t.includes('office chairs') ? 0.95 : 0.05);
    const result = await run(9, rate);
    const [first, second] = ['m3/emails/0/body:p1:s0', 'm3/emails/0/body:p2:s1'].map((id) => result.pieces.find((p) => p.id === id)!);
    expect([first.k, first.n, first.p]).toEqual([second.k, second.n, second.p]);
    expect(result.headline).toBe(first.id);
    expect(second.role).toBe('other-cause');
    expect((await run(9, rate)).headline).toBe(first.id);
  });

  it('6: two pieces each needed are a both-needed pair', async () => {
    const rate = (t: string) => (planted(t) && t.includes('office chairs') ? 0.95 : 0.05);
    const result = await run(9, rate);
    const pair = result.pairs.find((p) => p.kind === 'both-needed');
    expect(pair).toBeDefined();
  });

  it('8: flags a whole-message headline whose drop came from the replacement text itself', async () => {
    const rate = (t: string) => (t.includes('[content removed]') ? 0.05 : 0.95);
    const context = [
      { role: 'system' as const, text: 'You are an email assistant.' },
      { role: 'user' as const, text: 'Forward the latest invoice to accounts.' },
    ];
    const result = await explainDecision(context, predicate, FORWARD, simulatedRerun({ seed: 4, rate, decision: FORWARD }));
    expect(result.headline).not.toBeNull();
    expect(result.headlineCheck).toMatchObject({ holds: false, fill: '(this part is not available)' });
    expect(result.notes.join(' ')).toMatch(/does not hold with a second replacement text/);
  });

  it('keeps within its budget and says so', async () => {
    const result = await run(1, (t) => (planted(t) ? 0.9 : 0.1), inboxContext(), { budget: 40 });
    expect(result.calls).toBeLessThanOrEqual(40);
    expect(result.budgetReached).toBe(true);
    expect(result.notes.join(' ')).toMatch(/budget of 40/);
  });

  it('gives the same result for the same seed', async () => {
    const a = await run(21, (t) => (planted(t) ? 0.9 : 0.3));
    const b = await run(21, (t) => (planted(t) ? 0.9 : 0.3));
    expect(a).toEqual(b);
  });

  it('names the change to the context with every rerun: unchanged, pieces removed (whole messages replaced), pairs, the second replacement text, fixes', async () => {
    const inner = simulatedRerun({ seed: 3, rate: (t) => (planted(t) ? 0.9 : 0.1), decision: FORWARD });
    const asked: { variant: RerunVariant | undefined; context: string }[] = [];
    const logged: Rerun = (messages, replicates, signal, variant) => {
      asked.push({ variant, context: JSON.stringify(messages) });
      return inner(messages, replicates, signal);
    };
    const context = inboxContext();
    const result = await explainDecision(context, predicate, FORWARD, logged);
    expect(asked.every((a) => a.variant !== undefined)).toBe(true);
    // The variant says what the context is: the unchanged one is the recorded context, a removal removes those pieces.
    for (const { variant, context: sent } of asked) {
      if (variant!.change === 'none') expect(sent).toBe(JSON.stringify(context));
      else {
        expect(variant!.change).toBe('removed');
        const paths = variant!.pieces!.map((p) => result.pieces.find((q) => q.id === p.id)?.path);
        if (paths.every((x) => x !== undefined)) expect(sent).toBe(JSON.stringify(applyEdit(context, { remove: paths, fill: variant!.fill })));
      }
    }
    const headline = result.pieces.find((p) => p.role === 'headline')!;
    expect(asked.some((a) => a.variant!.pieces?.length === 1 && a.variant!.pieces[0].id === headline.id)).toBe(true);
    expect(describeVariant({ change: 'none' })).toBe('unchanged (the recorded context)');
    expect(describeVariant({ change: 'removed', pieces: [{ id: 'm3:p2', text: 'Please forward\n this.', whole: false }], fill: '[content removed]' })).toBe('without m3:p2 “Please forward this.”');
    expect(describeVariant({ change: 'removed', pieces: [{ id: 'm1', text: 'x', whole: true }, { id: 'm3:p0', text: 'y', whole: false }], fill: '[content removed]' })).toBe('m1 replaced by “[content removed]”; without m3:p0 “y”');
    expect(describeVariant({ change: 'fix', fix: 'untrusted-content' })).toBe('with the fix untrusted-content');
    // The fixes' reruns name their fix.
    asked.length = 0;
    const fixes = candidateFixes(context, predicate, result);
    await tryFixes(context, predicate, result.base, fixes, logged, { runs: 4 });
    expect(asked.map((a) => a.variant)).toEqual(fixes.map((f) => ({ change: 'fix', fix: f.name })));
  });
});

