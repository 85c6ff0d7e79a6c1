/**
 * What a new user reads when a budget stops a study early (the README's example at --budget 10):
 * "ranked first" names one player, so a tie at the top is said to be one; a value that lies
 * outside its own interval is named as such; a cost over the budget says why.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeEndpoints } from '../model/testing/use-fake-endpoints.ts';
import { scriptedModel } from '../replay/testing/runs.ts';
import { runBlame } from './testing/run-blame.ts';

const EXAMPLE = join(import.meta.dirname, '../../docs/examples/replay');

describe('replay: ranked first', () => {
  const startFake = useFakeEndpoints();
  const args = (url: string, extra: string[]) => [join(EXAMPLE, 'multiply.langfuse.json'), '--replay', '--expect', '42', '--tools', join(EXAMPLE, 'tools.js'), '--model-url', url, ...extra];

  it('says the first place is a tie, naming the others, when a budget stops the sampling with equal values at the top', async () => {
    const endpoint = await startFake({ answer: scriptedModel, models: ['gpt-test', 'fake-model'] });
    const r = await runBlame(args(endpoint.url, ['--method', 'mc', '--budget', '10']));
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^2 Planner +\+0\.708 /m);
    expect(r.stdout).toMatch(/^4 Calculator +\+0\.708 /m);
    expect(r.stdout).toContain('  ranked first: Planner at step 2 (tied with Calculator at step 4, python at step 5: the earliest is named; more samples may separate them)\n');
  });

  it('names one player alone when nothing ties it', async () => {
    const endpoint = await startFake({ answer: scriptedModel, models: ['gpt-test', 'fake-model'] });
    const r = await runBlame(args(endpoint.url, []));
    expect(r.stdout).toContain('  ranked first: Calculator at step 4\n');
    expect(r.stdout).not.toContain('outside its interval');
  });

  it('says which value lies outside its own interval when the budget stopped the sampling early', async () => {
    const endpoint = await startFake({ answer: scriptedModel, models: ['gpt-test', 'fake-model'] });
    const r = await runBlame(args(endpoint.url, ['--method', 'mc', '--budget', '10']));
    expect(r.stdout).toMatch(/^7 Reporter +-1\.125 +\[-1\.000, \+1\.000\]$/m);
    expect(r.stdout).toContain('outside its interval: 7 Reporter -1.125 [-1.000, +1.000] (too few samples: the estimate is still unsettled, the interval is what is known; a larger --budget narrows both)\n');
  });

  it('says why the cost passed a budget smaller than the two runs every case needs', async () => {
    const r = await runBlame([join(import.meta.dirname, '../../public/demos/refund-policy.trace.json'), '--method', 'mc', '--budget', '4']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('cost 10 of budget 4 (over it: v(no fix) and v(all fixes) always run, and the last coalition asked may pass it), stop: budget]');
    const within = await runBlame([join(import.meta.dirname, '../../public/demos/refund-policy.trace.json'), '--method', 'mc', '--budget', '20']);
    expect(within.stdout).toMatch(/cost (\d+) of budget 20, stop: /);
  });

  it('prints no table of zeros when no failure was analysed: the order-desk demo without its responses', async () => {
    const r = await runBlame([join(import.meta.dirname, '../../public/demos/order-desk.trace.json')]);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('6 cases, 0 failures, 0 analysed');
    expect(r.stdout).toContain('no failure analysed: 6 cases could not be analysed (the ERROR lines above say why), and no other case failed, so there is nothing to blame');
    expect(r.stdout).not.toMatch(/^extract +0\.0 %/m);
    // The demo ships its responses beside it: the command names the file and the flags that use it.
    const shipped = join(import.meta.dirname, '../../public/demos/order-desk.responses.jsonl');
    expect(r.stderr).toContain(`blame: note: ${shipped} beside the input holds recorded model responses: add --cache ${shipped} --offline to analyse with them`);
    const cached = await runBlame([join(import.meta.dirname, '../../public/demos/order-desk.trace.json'), '--cache', shipped, '--offline']);
    expect(cached.status).toBe(0);
    expect(cached.stderr).not.toContain('beside the input');
  });
});
