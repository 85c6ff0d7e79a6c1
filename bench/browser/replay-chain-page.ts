/**
 * A chained replay in the page (docs/replay.md, "Time"): a synthetic runtape log of N turns dropped
 * on the built workbench and blamed with one player (every model turn repaired: a chain of N/2
 * requests) against an instant loopback endpoint, as the site ships (cross-origin isolated: rounds
 * wait in the worker) and with the analysis frame's children left out of the isolation (their
 * `allow` attribute taken out of analysis-frame.js as it is served: every round restarts, the
 * page before waiting rounds). Prints, per mode, the wall time from Blame to "done", the browser's
 * CPU time over it (all its processes, from /proc: the figure to compare on a loaded machine), the
 * requests sent and the rounds restarted and waited (the progress line's data attributes).
 *
 *   npx tsx bench/browser/replay-chain-page.ts --dist dist-x --port 5370 --turns 400 [--modes wait,restart]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from '@playwright/test';
import { startFakeEndpoint } from '../../src/model/testing/fake-endpoint.ts';
import { runtapeLog } from '../../src/replay/testing/runtape-log.ts';
import { CHROMIUM_ARGS } from './chromium-args.ts';
import { descendantsCpuMs } from './process-cpu.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1] : fallback;
}

async function startPreview(port: number, outDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [resolve(ROOT, 'node_modules/vite/bin/vite.js'), 'preview', '--outDir', outDir, '--port', String(port), '--strictPort', '--host', '127.0.0.1'], { cwd: ROOT, stdio: 'ignore' });
  for (let tries = 0; tries < 150; tries++) {
    if (child.exitCode !== null) throw new Error(`vite preview exited with code ${child.exitCode}`);
    if (await fetch(`http://127.0.0.1:${port}/`).then((r) => r.ok, () => false)) return child;
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill();
  throw new Error('vite preview did not answer within 30 s');
}

async function setField(page: Page, label: string, value: string): Promise<void> {
  await page.getByLabel(label).fill(value);
  await page.getByLabel(label).dispatchEvent('change');
}

async function blameChain(page: Page, base: string, endpoint: string, turns: number, restarting: boolean) {
  if (restarting) {
    await page.route('**/analysis-frame.js', async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, body: (await response.text()).replace("child.allow = 'cross-origin-isolated';", '') });
    });
  }
  await page.goto(base);
  const log = runtapeLog(turns);
  const transfer = await page.evaluateHandle((text) => {
    const data = new DataTransfer();
    data.items.add(new File([text], 'chain.runtape.jsonl', { type: 'application/json' }));
    return data;
  }, log);
  await page.dispatchEvent('main', 'dragenter', { dataTransfer: transfer });
  await page.dispatchEvent('main', 'drop', { dataTransfer: transfer });
  await page.getByRole('button', { name: 'Blame this run' }).click();
  const setup = page.getByRole('region', { name: 'Blame this run' });
  await setup.getByRole('radio', { name: /^Agents/ }).check();
  await setup.getByLabel('The final answer contains').fill('refund denied');
  await setField(page, 'Base URL', endpoint);
  await setField(page, 'Model id', 'scripted');
  await setField(page, 'Ask before sending more than', '100000');
  const cpuBefore = descendantsCpuMs() ?? NaN;
  const started = performance.now();
  await setup.getByRole('button', { name: 'Blame', exact: true }).click();
  const progress = page.getByTestId('run-progress');
  await progress.and(page.locator('[data-status="done"]')).waitFor({ timeout: 3_600_000 });
  const wallMs = performance.now() - started;
  const cpuMs = (descendantsCpuMs() ?? NaN) - cpuBefore;
  return {
    wallMs,
    cpuMs,
    restarted: Number(await progress.getAttribute('data-rounds-restarted')),
    waited: Number(await progress.getAttribute('data-rounds-waited')),
    isolated: await page.evaluate(() => crossOriginIsolated),
  };
}

const dist = resolve(ROOT, option('dist', 'dist'));
const port = Number(option('port', '5370'));
const turns = Number(option('turns', '400'));
const modes = option('modes', 'wait,restart').split(',');
const preview = await startPreview(port, dist);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
try {
  for (const mode of modes) {
    const endpoint = await startFakeEndpoint({ models: ['scripted'] });
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      const figures = await blameChain(page, `http://127.0.0.1:${port}/`, endpoint.url, turns, mode === 'restart');
      console.log(
        `${turns} turns, ${mode === 'restart' ? 'restarting (children not isolated)' : 'waiting (as shipped)'}: ${(figures.wallMs / 1000).toFixed(1)} s wall, ` +
          `${(figures.cpuMs / 1000).toFixed(1)} s browser CPU, ${endpoint.requests.length} requests, ${figures.restarted} restarts, ${figures.waited} waits ` +
          `(page isolated: ${figures.isolated}; load ${loadavg()[0].toFixed(1)})`,
      );
    } finally {
      await context.close();
      await endpoint.close();
    }
  }
} finally {
  await browser.close();
  preview.kill();
}
