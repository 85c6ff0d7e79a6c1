/**
 * Waiting rounds (docs/replay.md, "Time"): in the Node pool a case whose round asked for one
 * request (a chain so far) runs its next round waiting, its thread blocked, for each response it
 * lacks, instead of restarting from the start once per request. The results, the requests sent
 * and their accounting are those of restarting rounds; the case's time limit leaves the waiting
 * out; a worker that dies or a pool that closes while a round waits ends the case cleanly.
 */
import { execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../engine/index.ts';
import { CountingResolver } from '../testing/counting-resolver.ts';
import { chainSource, question } from '../testing/chain-source.ts';
import { runtapeReplay } from '../../replay/testing/runtape-replay.ts';
import { oneStepSource } from '../../sandbox/testing/one-step.ts';
import type { AnalysisSettings } from '../../engine/types.ts';
import { NodeAnalysisPool } from './analysis-pool.ts';

const pools: NodeAnalysisPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});
function pool(options: ConstructorParameters<typeof NodeAnalysisPool>[0]): NodeAnalysisPool {
  const made = new NodeAnalysisPool(options);
  pools.push(made);
  return made;
}

const settings: AnalysisSettings = { ...DEFAULT_SETTINGS, method: 'exact', mode: 'recorded', models: { default: 'toy-1' } };

/**
 * Two steps whose fix is a chain of `n` requests on the case's question (neither reads the other);
 * as run they call no model, as a replay's recorded turns. Every round asks for two requests, one
 * per chain (the coalitions fixing one or both share them).
 */
const twoChainsSource = (n: number) => `
const chain = (name, question, llm) => {
  let text = '';
  for (let i = 0; i < ${n}; i++) text = llm.chat({ messages: [{ role: 'user', content: name + i + question + text }], temperature: 0 }).text;
  return text;
};
export default {
  name: 'two-chains',
  steps: [
    { name: 'left', inputs: ['question'], cost: 1, run: () => 'as run', fixes: [{ name: 'ask', cost: 1, run: (inputs, noise, { llm }) => chain('left', inputs.question, llm) }] },
    { name: 'right', inputs: ['question'], cost: 1, run: () => 'as run', fixes: [{ name: 'ask', cost: 1, run: (inputs, noise, { llm }) => chain('right', inputs.question, llm) }] },
  ],
  metric: (outputs) => (outputs.left === 'as run' || outputs.right === 'as run' ? 0 : 1),
};
`;

describe('waiting rounds in the Node pool', () => {
  it('a chain of 12 requests takes one restart and 11 waits instead of 12 restarts: the same results, requests sent and usage', async () => {
    const source = chainSource(12);
    const cases = [question('a', 'q'), question('b', 'r')];
    const waitingResolver = new CountingResolver();
    const waiting = pool({ size: 1, model: waitingResolver });
    const restartingResolver = new CountingResolver();
    const restarting = pool({ size: 1, model: restartingResolver, waitOnChains: false });
    const waited = await waiting.run(source, cases, settings);
    const restarted = await restarting.run(source, cases, settings);
    expect(waited[0].error).toBeUndefined();
    expect(waited).toEqual(restarted);
    // The same requests, each once (the two cases' chains interleave in another order).
    expect([...waitingResolver.sent].sort()).toEqual([...restartingResolver.sent].sort());
    expect(new Set(waitingResolver.sent).size).toBe(24);
    expect(waiting.modelRounds).toEqual({ restarts: 2, waits: 22 });
    expect(restarting.modelRounds).toEqual({ restarts: 24, waits: 0 });
  });

  it('a runtape replay of 60 turns, every model turn repaired (a chain of 30 requests): 1 restart instead of 30, the same result and requests', async () => {
    const def = runtapeReplay(60);
    const waitingResolver = new CountingResolver();
    const waiting = pool({ size: 1, model: waitingResolver, fileName: 'replay.js' });
    const restartingResolver = new CountingResolver();
    const restarting = pool({ size: 1, model: restartingResolver, fileName: 'replay.js', waitOnChains: false });
    const replaySettings = { ...settings, models: { default: 'm' } };
    const [waited] = await waiting.run(def.source, def.cases, replaySettings);
    const [restarted] = await restarting.run(def.source, def.cases, replaySettings);
    expect(waited.error).toBeUndefined();
    expect(waited).toEqual(restarted);
    expect(waitingResolver.sent).toEqual(restartingResolver.sent);
    expect(waitingResolver.sent).toHaveLength(30);
    expect(restarting.modelRounds).toEqual({ restarts: 30, waits: 0 });
    expect(waiting.modelRounds).toEqual({ restarts: 1, waits: 29 });
  });

  it('rounds whose requests are independent still restart with all of them at once (no waiting)', async () => {
    // Three requests that quote no answer: one round asks them together.
    const source = oneStepSource(`return [0, 1, 2].map((i) => { try { return llm.chat({ messages: [{ role: 'user', content: 'q' + i }], temperature: 0 }).text; } catch (e) { return null; } }).join(' ');`).replace(
      'run: (inputs, noise) =>',
      'run: (inputs, noise, { llm }) =>',
    );
    const resolver = new CountingResolver();
    const waiting = pool({ size: 1, model: resolver });
    const [result] = await waiting.run(source, [question('a', 'q')], settings);
    expect(result.error).toBeUndefined();
    expect(resolver.sent).toHaveLength(3);
    expect(waiting.modelRounds).toEqual({ restarts: 1, waits: 0 });
  });

  it('two chains side by side restart once per level: each round asks for both chains\' next requests together (rule 4), with the same results', async () => {
    const source = twoChainsSource(4);
    const resolver = new CountingResolver();
    const waiting = pool({ size: 1, model: resolver });
    const restartingResolver = new CountingResolver();
    const restarting = pool({ size: 1, model: restartingResolver, waitOnChains: false });
    const [waited] = await waiting.run(source, [{ id: 'a', inputs: { question: 'q' } }], settings);
    const [restarted] = await restarting.run(source, [{ id: 'a', inputs: { question: 'q' } }], settings);
    expect(waited.error).toBeUndefined();
    expect(waited).toEqual(restarted);
    expect(resolver.sent).toEqual(restartingResolver.sent);
    expect(waiting.modelRounds).toEqual({ restarts: 4, waits: 0 });
  });

  it('the time limit leaves out the waiting: 8 answers of 250 ms each in a case limited to 1 s', async () => {
    const resolver = new CountingResolver(250);
    const waiting = pool({ size: 1, timeoutMs: 1000, model: resolver });
    const [result] = await waiting.run(chainSource(8), [question('slow', 'q')], settings);
    expect(result.error).toBeUndefined();
    expect(waiting.modelRounds).toEqual({ restarts: 1, waits: 7 });
  });

  it('a host that fails while a round waits gives the error a restarting round gives, naming the step', async () => {
    const failing = () => async (sent: number) => {
      if (sent >= 3) throw new Error('endpoint http://127.0.0.1:9 refused the connection');
    };
    const waiting = pool({ size: 1, model: new CountingResolver(0, failing()) });
    const restarting = pool({ size: 1, model: new CountingResolver(0, failing()), waitOnChains: false });
    const [waited] = await waiting.run(chainSource(6), [question('a', 'q')], settings);
    const [restarted] = await restarting.run(chainSource(6), [question('a', 'q')], settings);
    expect(waited.error).toBe('case "a": model requests of step "probe" failed: endpoint http://127.0.0.1:9 refused the connection');
    expect(waited).toEqual(restarted);
    expect(waiting.modelRounds.waits).toBe(2);
  });

  it('a worker process killed while its round waits fails that case only; the late answer is dropped and the next case runs', async () => {
    let killed = false;
    const resolver = new CountingResolver(0, async (sent) => {
      if (sent !== 3 || killed) return;
      killed = true;
      const children = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' });
      for (const line of children.split('\n')) if (line.includes('analysis.process.mjs')) process.kill(Number(line.trim().split(/\s+/)[0]), 'SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    const waiting = pool({ size: 1, model: resolver });
    const results = await waiting.run(chainSource(6), [question('a', 'q'), question('b', 'r')], settings);
    expect(killed).toBe(true);
    expect(results[0].error).toMatch(/^case "a": the analysis worker stopped: the worker process exited \(SIGKILL\)/);
    expect(results[1].error).toBeUndefined();
  });

  it('closing the pool while a round waits ends the case with the pool closed, and the close does not hang', async () => {
    let arrived: () => void = () => {};
    const waitingStarted = new Promise<void>((resolve) => (arrived = resolve));
    const resolver = new CountingResolver(0, async (sent) => {
      if (sent < 2) return;
      arrived();
      await new Promise(() => {});
    });
    const waiting = pool({ size: 1, model: resolver });
    const running = waiting.run(chainSource(6), [question('a', 'q')], settings);
    await waitingStarted;
    await waiting.close();
    const [result] = await running;
    expect(result.error).toBe('case "a": the analysis worker stopped: the pool was closed');
    expect(waiting.modelRounds.restarts).toBe(1);
  });

  it('a command that dies while its worker waits leaves no worker process behind', async () => {
    // A command of its own (so this test can kill it): it runs a chain whose second answer never comes, and prints its worker process's id once that waits.
    const host = `
      const { NodeAnalysisPool } = await import(${JSON.stringify(fileURLToPath(new URL('./analysis-pool.ts', import.meta.url)))});
      const { CountingResolver } = await import(${JSON.stringify(fileURLToPath(new URL('../testing/counting-resolver.ts', import.meta.url)))});
      const { execFileSync } = await import('node:child_process');
      const resolver = new CountingResolver(0, async (sent) => {
        if (sent < 1) return;
        const children = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' });
        console.log('worker ' + children.split('\\n').filter((line) => line.includes('analysis.process.mjs')).map((line) => line.trim().split(/\\s+/)[0]).join(' '));
        await new Promise(() => {});
      });
      const pool = new NodeAnalysisPool({ size: 1, model: resolver });
      await pool.run(${JSON.stringify(chainSource(4))}, [{ id: 'a', inputs: { question: 'q', doc: null } }], ${JSON.stringify(settings)});
    `;
    const command = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', host], { stdio: ['ignore', 'pipe', 'inherit'] });
    const line = await new Promise<string>((resolve) => {
      let out = '';
      command.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /worker (\d+)/.exec(out);
        if (match) resolve(match[1]);
      });
    });
    const workerPid = Number(line);
    expect(workerPid).toBeGreaterThan(0);
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    expect(alive(workerPid)).toBe(true);
    command.kill('SIGKILL');
    // The worker process sees its channel close and exits, its thread blocked or not.
    await expect.poll(() => alive(workerPid), { timeout: 10_000, interval: 50 }).toBe(false);
  }, 30_000);
});
