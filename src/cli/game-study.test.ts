import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BatchStopper } from '../engine/batch.ts';
import { analyzeTableGame } from '../engine/table-game.ts';
import { DEFAULT_SETTINGS } from '../engine/index.ts';
import type { CaseResult } from '../engine/types.ts';
import { parseSessionFile } from '../session/session-file.ts';

const ROOT = join(import.meta.dirname, '../..');

function blame(...args: string[]) {
  const r = spawnSync(process.execPath, [join(ROOT, 'src/cli/blame.mjs'), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** v by mask over planner (bit 0) and retriever (bit 1): game k leans on the planner, more or less. */
function values(k: number): number[] {
  const lean = 0.6 + 0.3 * Math.sin(k);
  return [0, lean, 1 - lean, 1];
}

function gameFile(count: number): string {
  const games = Array.from({ length: count }, (_, k) => {
    const v = values(k);
    return { id: `g${k}`, players: ['planner', 'retriever'], values: [[], ['planner'], ['retriever'], ['planner', 'retriever']].map((fixed, mask) => ({ fixed, value: v[mask] })) };
  });
  const dir = mkdtempSync(join(tmpdir(), 'blame-games-'));
  const path = join(dir, 'many.game.json');
  writeFileSync(path, JSON.stringify({ format: 'agentblame-game', version: 1, games }));
  return path;
}

describe('blame on a game file (its games analysed in the workers, through the one study run)', () => {
  const file = gameFile(80);

  it('gives every game the result the engine gives it inline, in file order', () => {
    const r = blame(file, '--json');
    expect(r.status).toBe(0);
    const { cases } = JSON.parse(r.stdout) as { cases: { id: string; shapley: Record<string, number> }[] };
    expect(cases.map((c) => c.id)).toEqual(Array.from({ length: 80 }, (_, k) => `g${k}`));
    for (const [k, c] of cases.entries()) {
      const inline = analyzeTableGame({ id: `g${k}`, players: ['planner', 'retriever'], values: Float64Array.from(values(k)) }, DEFAULT_SETTINGS);
      expect(c.shapley).toEqual(inline.shapley);
    }
  });

  it('stops a game file\'s games with --batch-stop where the stopper fed them in order stops', () => {
    const r = blame(file, '--json', '--batch-stop', '--batch-bound', 'anytime');
    expect(r.status).toBe(0);
    const { batch, cases } = JSON.parse(r.stdout) as { batch: { stoppedEarly?: boolean; analyzed: number }; cases: unknown[] };
    const stopper = new BatchStopper({ delta: DEFAULT_SETTINGS.delta, bound: 'anytime' });
    const reference = Array.from({ length: 80 }, (_, k) => analyzeTableGame({ id: `g${k}`, players: ['planner', 'retriever'], values: Float64Array.from(values(k)) }, DEFAULT_SETTINGS)).findIndex((result: CaseResult) => stopper.push(result)) + 1;
    expect(reference).toBeGreaterThan(0);
    expect(batch.stoppedEarly).toBe(true);
    expect(cases).toHaveLength(reference);
    expect(batch.analyzed).toBe(reference);
  });

  it('saves --batch-stop in the session\'s study mark, beside the batch bound, so the page reopens it as stopped', () => {
    const saved = join(mkdtempSync(join(tmpdir(), 'blame-games-save-')), 'stopped.session.json');
    expect(blame(file, '--batch-stop', '--batch-bound', 'anytime', '--save', saved).status).toBe(0);
    const session = parseSessionFile(readFileSync(saved, 'utf8'));
    expect(session.study).toMatchObject({ batchBound: 'anytime', batchStop: true });
    expect(session.batch?.stoppedEarly).toBe(true);
    expect(session.results.length).toBeLessThan(80);
  });
});
