import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');

/** Pids of live processes whose environment holds `marker`. */
function processesMarked(marker: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/environ`, 'latin1').includes(marker)) found.push(Number(name));
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

describe.runIf(process.platform === 'linux')('WorkerProcess', () => {
  it('leaves no worker process behind when the command exits right after starting its pool', async () => {
    // The worker process loads as an ES module, asynchronously: a command that exited within
    // those milliseconds closed the channel before the process listened for it, and the process
    // (its thread idle) lived on for ever. Twelve of twelve were left before the fix.
    const marker = `AGENTBLAME_ORPHAN_CHECK_${process.pid}_${Date.now()}`;
    const script = "import { NodeAnalysisPool } from './src/pool/node/analysis-pool.ts'; new NodeAnalysisPool({ size: 2 }); setTimeout(() => process.exit(0), Number(process.argv[1]));";
    for (const delayMs of [0, 5, 50]) {
      const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, String(delayMs)], { cwd: ROOT, env: { ...process.env, [marker]: '1' } });
      expect(run.status, run.stderr.toString()).toBe(0);
    }
    const deadline = Date.now() + 5000;
    let left = processesMarked(marker);
    while (left.length > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      left = processesMarked(marker);
    }
    for (const pid of left) process.kill(pid, 'SIGKILL');
    expect(left).toEqual([]);
  }, 60_000);
});
