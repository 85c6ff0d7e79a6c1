import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seededRng } from '../engine/rng.ts';
import { blameSync as blame, expectBadInput } from './testing/run-blame.ts';

const PIPELINE = join(import.meta.dirname, 'fixtures/repairs.pipeline.js');

const dir = mkdtempSync(join(tmpdir(), 'blame-repairs-'));
function tempFile(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('--repairs on a pipeline with known logic (fixtures/repairs.pipeline.js)', () => {
  const pairsFile = join(dir, 'pairs.jsonl');
  const r = blame(PIPELINE, '--repairs', '--pairs', pairsFile, '--json');
  const out = JSON.parse(r.stdout);
  const byId = (id: string) => out.cases.find((c: { id: string }) => c.id === id);

  it('lists exactly the minimal repairs, smallest then cheapest', () => {
    expect(r.status).toBe(0);
    expect(byId('easy').repairs).toEqual([{ fixed: ['plan'], value: 1, cost: 1 }, { fixed: ['draft'], value: 1, cost: 2 }, { fixed: ['search'], value: 1, cost: 4 }]);
    expect(byId('hard').repairs).toEqual([{ fixed: ['plan'], value: 1, cost: 1 }, { fixed: ['search'], value: 1, cost: 4 }]);
    expect(byId('pair').repairs).toEqual([{ fixed: ['plan', 'draft'], value: 1, cost: 3 }, { fixed: ['search', 'draft'], value: 1, cost: 6 }]);
    expect(byId('pair').repairSearch).toEqual({ success: 1, maxSize: 4, complete: true });
  });

  it('gives the causal consensus with Wilson intervals', () => {
    const steps = out.batch.consensus.steps;
    expect(out.batch.consensus).toMatchObject({ searched: 3, unrepaired: 0, notSearched: 0 });
    expect(steps.map((s: { step: string; cases: number }) => [s.step, s.cases])).toEqual([['plan', 3], ['search', 3], ['draft', 2], ['check', 0]]);
    // Wilson 95% of 2/3 (python3): (0.20765959880782425, 0.9385080559790691).
    const draft = steps[2];
    expect(draft.ci[0]).toBeCloseTo(0.20765959880782425, 12);
    expect(draft.ci[1]).toBeCloseTo(0.9385080559790691, 12);
  });

  it('writes a pairs file that reads as a preference data set', () => {
    const lines = readFileSync(pairsFile, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(4); // plan for each case, and draft for "pair"
    const textOrMessages = (x: unknown) =>
      (typeof x === 'string' && x.length > 0) ||
      (Array.isArray(x) && x.length > 0 && x.every((m) => typeof m?.role === 'string' && typeof m?.content === 'string' && m.content.length > 0));
    for (const p of lines) {
      expect(textOrMessages(p.prompt)).toBe(true);
      expect(textOrMessages(p.chosen)).toBe(true);
      expect(textOrMessages(p.rejected)).toBe(true);
      expect(p.chosen).not.toEqual(p.rejected);
    }
    expect(lines[3]).toEqual({
      prompt: 'draft({"question":"pair refund","search":"doc-stale"})',
      chosen: 'refund approved, checked',
      rejected: 'refund denied',
      case: 'pair',
      step: 'draft',
      fix: 'careful draft',
      before: 0,
      after: 1,
      shapley: 2 / 3,
    });
  });

  it('a bounded search stops at --repair-size when sampling', () => {
    const mc = JSON.parse(blame(PIPELINE, '--repairs', '--method', 'mc', '--max-permutations', '40', '--repair-size', '1', '--json').stdout);
    const pair = mc.cases.find((c: { id: string }) => c.id === 'pair');
    expect(pair.repairs).toEqual([]);
    expect(pair.repairSearch).toEqual({ success: 1, maxSize: 1, complete: false });
    expect(mc.cases.find((c: { id: string }) => c.id === 'easy').repairs.map((x: { fixed: string[] }) => x.fixed)).toEqual([['plan'], ['draft'], ['search']]);
    expect(mc.batch.consensus).toMatchObject({ searched: 3, unrepaired: 1 });
  });

  it('prints repairs and the consensus in the tables', () => {
    const t = blame(PIPELINE, '--repairs');
    expect(t.stdout).toContain('minimal repairs (v >= 1, every set): {plan, draft} cost 3; {search, draft} cost 6');
    expect(t.stdout).toMatch(/causal consensus/);
  });

  it('a saved session keeps the repairs, and printing it with --repairs lists them again', () => {
    const saved = join(dir, 'repairs.agentblame-session.json');
    expect(blame(PIPELINE, '--repairs', '--save', saved, '--json').status).toBe(0);
    const again = JSON.parse(blame(saved, '--repairs', '--json').stdout);
    expect(again.cases.map((c: { repairs: unknown }) => c.repairs)).toEqual(out.cases.map((c: { repairs: unknown }) => c.repairs));
    expect(again.batch.consensus.steps).toEqual(out.batch.consensus.steps);
    // The report of the stored session has the repairs section.
    const html = join(dir, 'repairs.html');
    expect(blame(saved, '--repairs', '--html', html).status).toBe(0);
    expect(readFileSync(html, 'utf8')).toContain('<span class="chip">{plan, draft} · cost 3</span>');
  });

  it('audits a pipeline\'s built-in signals, first error and last touch included (they read the kept outputs)', () => {
    const audit = JSON.parse(blame(PIPELINE, '--audit', tempFile('empty-credit.json', '{"signals":{}}'), '--json').stdout).audit;
    const used = Object.fromEntries(audit.signals.map((s: { name: string; used: number }) => [s.name, s.used]));
    // Every case's Shapley values vary and each marker signal marks one step; fix-alone is constant
    // (all 0) for "pair" and leave-one-out (all 0) for "easy", so each leaves one case undefined.
    expect(used).toEqual({ 'fix-alone': 2, 'leave-one-out': 2, 'last touch': 3, 'last step': 3, 'first error': 3 });
    expect(audit.signals.find((s: { name: string }) => s.name === 'fix-alone').undefined).toBe(1);
  });

  it('--success and --repair-size need --repairs', () => {
    expectBadInput(blame(PIPELINE, '--success', '0.5'), /--success .*--repairs/);
    expectBadInput(blame(PIPELINE, '--repairs', '--repair-size', '0'), /--repair-size: expected a whole number/);
  });
});

/** A game file of random 4-step games, and the Shapley values the command finds for them. */
function randomGames(count: number) {
  const rng = seededRng(2024);
  const players = ['a', 'b', 'c', 'd'];
  const games = Array.from({ length: count }, (_, k) => ({
    id: `g${k}`,
    players,
    values: Array.from({ length: 16 }, (_, m) => ({ fixed: players.filter((_, i) => (m >> i) & 1), value: m === 0 ? 0 : Math.round(rng() * 100) / 100 })),
  }));
  return tempFile(`games-${count}.json`, JSON.stringify({ format: 'agentblame-game', version: 1, games }));
}

describe('--audit', () => {
  const games = randomGames(40);
  const base = JSON.parse(blame(games, '--json').stdout);
  const failures = base.cases.filter((c: { failed: boolean; shapley?: unknown }) => c.failed && c.shapley);
  const noise = seededRng(7);
  const credit = {
    format: 'agentblame-credit',
    signals: {
      oracle: Object.fromEntries(failures.map((c: { id: string; shapley: Record<string, number> }) => [c.id, Object.fromEntries(Object.entries(c.shapley).map(([s, v]) => [s, 3 * v - 1]))])),
      random: Object.fromEntries(failures.map((c: { id: string; players: string[] }) => [c.id, Object.fromEntries(c.players.map((s) => [s, noise()]))])),
    },
  };
  const creditFile = tempFile('credit.json', JSON.stringify(credit));
  const r = blame(games, '--audit', creditFile, '--json');
  const audit = JSON.parse(r.stdout).audit;
  const signal = (name: string) => audit.signals.find((s: { name: string }) => s.name === name);

  it('ranks an oracle signal above its shuffled control and a random one not', () => {
    expect(r.status).toBe(0);
    expect(failures.length).toBeGreaterThan(30);
    expect(signal('oracle')).toMatchObject({ builtin: false, used: failures.length, undefined: 0, verdict: 'above control' });
    expect(signal('oracle').fidelity.median).toBe(1);
    expect(signal('random').verdict).toBe('indistinguishable');
    expect(audit.resamples).toBe(10_000);
    expect(audit.signals.filter((s: { builtin: boolean }) => s.builtin).map((s: { name: string }) => s.name)).toEqual(['fix-alone', 'leave-one-out', 'last touch', 'last step', 'first error']);
    // Game tables have no outputs: last touch and first error say nothing, so every case is undefined for them.
    expect(signal('last touch')).toMatchObject({ used: 0, verdict: 'undefined' });
  });

  it('is deterministic under a seed', () => {
    expect(blame(games, '--audit', creditFile, '--json').stdout).toBe(r.stdout);
  });

  it('prints the audit table', () => {
    const t = blame(games, '--audit', creditFile);
    expect(t.stdout).toMatch(/credit audit/);
    expect(t.stdout).toMatch(/oracle \(given\).*above control/);
  });

  it('refuses an unknown case, an unknown step and a non-number score, naming the JSON path', () => {
    const bad = (signals: unknown) => tempFile(`bad-${Math.round(noise() * 1e9)}.json`, JSON.stringify({ signals }));
    expectBadInput(blame(games, '--audit', bad({ judge: { nope: { a: 1 } } })), /signals\.judge\.nope: no case "nope"/);
    expectBadInput(blame(games, '--audit', bad({ judge: { g1: { z: 1 } } })), /signals\.judge\.g1\.z: case "g1" has no step "z"/);
    expectBadInput(blame(games, '--audit', bad({ judge: { g1: { a: 'high' } } })), /signals\.judge\.g1\.a: .*number/);
    expectBadInput(blame(games, '--audit', tempFile('not.json', '{')), /not JSON/);
    expectBadInput(blame(games, '--audit', join(dir, 'missing.json')), /no such file/);
  });
});
