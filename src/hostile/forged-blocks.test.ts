/**
 * Forged `contrast` and `repairs` blocks in a session file: what can be recomputed from the file
 * (a point of commitment from its rows, the replays its arms hold, intervals from their counts,
 * minimal repairs from a complete coalition table) is, and a block that contradicts it is refused
 * with its JSON path (exit 2), never printed as fact.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { blameSync, expectBadInput, scratchFiles } from '../cli/testing/run-blame.ts';
import { newcombeInterval } from '../engine/stats/newcombe-interval.ts';
import { wilsonInterval } from '../engine/stats/wilson-interval.ts';
import { contrastProblem } from '../session/testing/contrast-problem.ts';

const file = scratchFiles('blame-forged-');

describe('a forged contrast block', () => {
  it('the honest block is read', () => {
    expect(contrastProblem(() => {})).toBe('accepted');
  });

  it('a point of commitment its own rows contradict is refused', () => {
    expect(contrastProblem((c) => (c.runs[0].commitment = { index: 0, step: 1, name: 'Planner chat', agent: 'Planner' }))).toMatch(/^contrast\.runs\[0\]\.commitment: the rows give turn 1 .*not turn 0/);
    expect(contrastProblem((c) => (c.runs[0].commitment = null))).toMatch(/^contrast\.runs\[0\]\.commitment: the rows give turn 1 .*not none/);
  });

  it('a replay count the arms do not hold is refused', () => {
    // Every arm holds 3 replays (counts, rates and intervals all agree), the block says 35 per arm.
    const three = (failures: number) => ({ failures, n: 3, rate: failures / 3, ci: wilsonInterval(failures, 3) });
    expect(contrastProblem((c) => {
      for (const row of c.runs[0].contrast) {
        row.regenerated = three(row.regenerated.failures === 0 ? 0 : 3);
        row.kept = three(row.kept.failures === 0 ? 0 : 3);
        row.ci = newcombeInterval(row.regenerated.failures, 3, row.kept.failures, 3);
      }
      // 3 of 3 cannot show a commitment (Wilson lower bound 0.44).
      c.runs[0].commitment = null;
    })).toMatch(/^contrast\.runs\[0\]: its 4 arms hold 12 replays \(errors included\), not 35 per arm \(140\)/);
    expect(contrastProblem((c) => (c.replays = 36))).toMatch(/^contrast\.runs\[0\]: its 4 arms hold 140 replays \(errors included\), not 36 per arm \(144\)/);
  });

  it('an interval that is not the one its counts give, or a shared arm told two ways, is refused', () => {
    expect(contrastProblem((c) => (c.runs[0].contrast[1].kept.ci = [0.5, 1]))).toMatch(/^contrast\.runs\[0\]\.contrast\[1\]\.kept\.ci: expected the Wilson interval of 35\/35/);
    expect(contrastProblem((c) => (c.runs[0].contrast[0].ci = [-0.5, 0.5]))).toMatch(/^contrast\.runs\[0\]\.contrast\[0\]\.ci: expected Newcombe's interval/);
    expect(contrastProblem((c) => {
      const row = c.runs[0].contrast[2];
      row.regenerated = { failures: 0, n: 35, rate: 0, ci: [0, 0.0989] };
      row.difference = -1;
      row.ci = [-1, -0.8601];
    })).toMatch(/^contrast\.runs\[0\]\.contrast\[1\]\.kept: 35\/35 differs from the next row's regenerated arm 0\/35/);
  });
});

describe('forged repairs', () => {
  let saved: string;
  beforeAll(() => {
    saved = file('honest.session.json');
    const r = blameSync(join(import.meta.dirname, '../cli/fixtures/repairs.pipeline.js'), '--repairs', '--save', saved, '--json');
    expect(r.status).toBe(0);
  });

  /** Prints a copy of the saved session with case "easy" edited (its repairs: {plan}, {draft}, {search}; a complete table). */
  function printed(name: string, edit: (easy: Record<string, any>) => void) {
    const session = JSON.parse(readFileSync(saved, 'utf8'));
    const k = session.results.findIndex((r: { id: string }) => r.id === 'easy');
    edit(session.results[k]);
    const forged = file(name);
    writeFileSync(forged, JSON.stringify(session));
    return { run: blameSync(forged), at: `results[${k}]` };
  }

  it('the honest session prints', () => {
    expect(printed('same.json', () => {}).run.status).toBe(0);
  });

  it.each([
    ['the empty set as a repair of a failure', (e: any) => (e.repairs = [{ fixed: [], value: 1, cost: 0 }]), String.raw`\.repairs\[0\]: the empty set is no repair`],
    ['a set that is not minimal', (e: any) => e.repairs.push({ fixed: ['plan', 'search'], value: 1, cost: 5 }), String.raw`\.repairs\[3\]: \{plan, search\} is not minimal: it contains the repair \{plan\}`],
    ['a step named twice', (e: any) => (e.repairs[0].fixed = ['plan', 'plan']), String.raw`\.repairs\[0\]\.fixed: names step "plan" twice`],
    ['a dropped repair', (e: any) => e.repairs.splice(1, 1), String.raw`\.repairs: leaves out the minimal repair \{draft\}`],
    ['a success level the table contradicts', (e: any) => (e.repairSearch.success = 0), String.raw`\.repairs\[0\]: \{plan\} is not a minimal repair by the coalition table \(success level 0\)`],
    ['a repair the table says fails', (e: any) => (e.repairs[0] = { fixed: ['check'], value: 1, cost: 1 }), String.raw`\.repairs\[0\]\.value: 1 is not the coalition table's value of \{check\}, 0`],
  ])('%s is refused with its path (exit 2)', (_, edit, expected) => {
    const { run, at } = printed('forged.json', edit);
    const lines = expectBadInput(run, new RegExp(`${at.replace(/[[\]]/g, '\\$&')}${expected}`));
    expect(lines).toHaveLength(1);
  });
});
