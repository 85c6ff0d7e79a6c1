/**
 * Interleaved A/B of two builds of the workbench (the machine's load moves too much for runs taken
 * minutes apart to compare): for each round, each build, each demo and each worker count, one
 * analysis timed as `npm run bench:browser` times it (status "running" to "done"). Prints the
 * medians and the 2-vs-1 speed-ups, page open to done, and the CPU time the browser used from
 * opening the page to done (steadier than wall time when other jobs share the cores).
 *
 *   npm run build -- --outDir /tmp/a && ... --outDir /tmp/b
 *   npx tsx bench/browser/ab.ts /tmp/a /tmp/b [rounds]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from '@playwright/test';
import { median } from '../lib/measure.ts';
import { CHROMIUM_ARGS } from './chromium-args.ts';
import { sampleDescendantsCpu } from './process-cpu.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const INIT_SCRIPT = `
  window.__status = [];
  const seen = new WeakMap();
  new MutationObserver(() => {
    const el = document.querySelector('[data-testid="run-progress"]');
    if (!el) return;
    const s = el.getAttribute('data-status');
    if (seen.get(el) !== s) { seen.set(el, s); window.__status.push({ status: s, at: performance.now() }); }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-status'] });
`;

async function preview(dist: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [resolve(ROOT, 'node_modules/vite/bin/vite.js'), 'preview', '--outDir', dist, '--port', String(port), '--strictPort', '--host', '127.0.0.1'], { cwd: ROOT, stdio: 'ignore' });
  for (let i = 0; i < 150; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/`)).ok) return child;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill();
  throw new Error(`vite preview of ${dist} did not answer`);
}

/**
 * One analysis: [running -> done, navigation start -> done] in ms, and the CPU time the browser's
 * processes used from before the navigation to done and from running to done (NaN where /proc is
 * not there; sampled every 25 ms).
 */
async function timeRun(browser: Browser, port: number, trace: string, workers: number): Promise<[number, number, number, number]> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.addInitScript(INIT_SCRIPT);
  const cpu = sampleDescendantsCpu();
  try {
    const opened = Date.now();
    await page.goto(`http://127.0.0.1:${port}/?trace=demos/${trace}.trace.json&workers=${workers}`);
    await page.waitForSelector('[data-testid="run-progress"][data-status="done"]', { timeout: 120_000 });
    const log = (await page.evaluate('window.__status')) as { status: string; at: number }[];
    const start = log.find((s) => s.status === 'running')?.at;
    const end = log.find((s) => s.status === 'done')?.at;
    if (start === undefined || end === undefined) throw new Error(`status not seen: ${JSON.stringify(log)}`);
    cpu.stop();
    const origin = (await page.evaluate('performance.timeOrigin')) as number;
    return [end - start, end, cpu.at(origin + end) - cpu.at(opened), cpu.at(origin + end) - cpu.at(origin + start)];
  } finally {
    cpu.stop();
    await context.close();
  }
}

async function main(): Promise<void> {
  const [a, b, roundsText = '5'] = process.argv.slice(2);
  if (!a || !b) throw new Error('usage: ab.ts DIST_A DIST_B [rounds]');
  const builds = [a, b];
  const servers = await Promise.all(builds.map((dist, i) => preview(dist, 5290 + i)));
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: [...CHROMIUM_ARGS, ...(process.env.EXTRA_CHROMIUM_ARGS ? process.env.EXTRA_CHROMIUM_ARGS.split(' ') : [])] });
  const times = new Map<string, number[]>();
  const add = (key: string, ms: number) => times.set(key, [...(times.get(key) ?? []), ms]);
  try {
    const demos = ['stochastic-rag', 'eight-step-agent'];
    for (let round = -1; round < Number(roundsText); round++) {
      for (const [i, dist] of builds.entries()) {
        for (const trace of demos) {
          for (const workers of [1, 2]) {
            const [analysis, openToDone, cpu, analysisCpu] = await timeRun(browser, 5290 + i, trace, workers);
            if (round < 0) continue; // warm-up round
            add(`${dist} ${trace} ${workers}`, analysis);
            add(`${dist} ${trace} ${workers} open`, openToDone);
            add(`${dist} ${trace} ${workers} cpu`, cpu);
            add(`${dist} ${trace} ${workers} analysis cpu`, analysisCpu);
          }
        }
      }
      process.stderr.write(`round ${round} done, load ${loadavg()[0].toFixed(1)}\n`);
    }
    for (const dist of builds) {
      for (const trace of demos) {
        const one = median(times.get(`${dist} ${trace} 1`)!);
        const two = median(times.get(`${dist} ${trace} 2`)!);
        const oneOpen = median(times.get(`${dist} ${trace} 1 open`)!);
        const twoOpen = median(times.get(`${dist} ${trace} 2 open`)!);
        const oneCpu = median(times.get(`${dist} ${trace} 1 cpu`)!);
        const twoCpu = median(times.get(`${dist} ${trace} 2 cpu`)!);
        const oneAnalysisCpu = median(times.get(`${dist} ${trace} 1 analysis cpu`)!);
        const twoAnalysisCpu = median(times.get(`${dist} ${trace} 2 analysis cpu`)!);
        console.log(
          `${dist.padEnd(24)} ${trace.padEnd(17)} analysis 1 worker ${one.toFixed(0).padStart(5)} ms, 2 workers ${two.toFixed(0).padStart(5)} ms: ${(one / two).toFixed(2)}x` +
            `   (page open to done: ${oneOpen.toFixed(0)} / ${twoOpen.toFixed(0)} ms; browser CPU ${oneCpu.toFixed(0)} / ${twoCpu.toFixed(0)} ms, of which running to done ${oneAnalysisCpu.toFixed(0)} / ${twoAnalysisCpu.toFixed(0)} ms)   runs 2w: ${times.get(`${dist} ${trace} 2`)!.map((t) => t.toFixed(0)).join(' ')}`,
        );
      }
    }
    console.log(`load average at the end: ${loadavg().map((x) => x.toFixed(1)).join(', ')}`);
  } finally {
    await browser.close();
    for (const server of servers) server.kill();
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
