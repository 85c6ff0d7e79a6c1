/**
 * A CPU profile of the page's main thread while it analyses a demo with one worker (Chromium's
 * CDP Profiler through Playwright): what the page itself does per arrived result, which the
 * command does not (bench/README.md, "Speed round 4"). Prints the functions by self time and
 * writes the `.cpuprofile` (Chrome DevTools opens it).
 *
 *   npx tsx bench/browser/profile-page.ts --dist dist-x --port 5370 [--trace eight-step-agent] [--out /tmp/page.cpuprofile] [--from-start-page]
 *
 * With --from-start-page the demo is chosen on the start page once the browser is quiet, as
 * page-vs-command.ts times it; the profile then starts at the click (the page's loading left out).
 *
 * The build must exist (`npx vite build --outDir dist-x`); `vite preview` serves it on the port.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS } from './chromium-args.ts';
import { selfTimes } from '../profile-summary.ts';
import { browserQuiet } from './open-from-start-page.ts';
import { assertPortFree } from './port-free.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
}

const dist = resolve(ROOT, arg('dist', 'dist'));
const port = Number(arg('port', '5370'));
const trace = arg('trace', 'eight-step-agent');
const out = arg('out', `/tmp/page-${trace}.cpuprofile`);

await assertPortFree(port);
const preview = spawn(process.execPath, [resolve(ROOT, 'node_modules/vite/bin/vite.js'), 'preview', '--outDir', dist, '--port', String(port), '--strictPort', '--host', '127.0.0.1'], { cwd: ROOT, stdio: 'ignore' });
const base = `http://127.0.0.1:${port}`;
try {
  for (let tries = 0; ; tries++) {
    try {
      if ((await fetch(`${base}/`)).ok) break;
    } catch {
      // not up yet
    }
    if (tries > 150) throw new Error(`vite preview of ${dist} did not answer on port ${port}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    const url = `${base}/?trace=demos/${trace}.trace.json&workers=1`;
    // A warm-up visit (HTTP and code caches), as the bench's timed runs have.
    await page.goto(url);
    await page.waitForSelector('[data-testid="run-progress"][data-status="done"]', { timeout: 600_000 });
    await page.goto(`${base}/`);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    if (process.argv.includes('--from-start-page')) {
      await page.goto(`${base}/?workers=1`);
      await page.locator(`[data-demo="${trace}"]`).waitFor();
      await browserQuiet();
      await cdp.send('Profiler.start');
      await page.click(`[data-demo="${trace}"]`);
      await page.waitForSelector('[data-testid="run-progress"][data-status="done"]', { timeout: 600_000, state: 'attached' });
      const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Parameters<typeof selfTimes>[0] };
      writeFileSync(out, JSON.stringify(profile));
      process.stdout.write(`${trace}: main-thread profile from the click to "done" in ${out}\n`);
      for (const r of selfTimes(profile).slice(0, 40)) process.stdout.write(`${r.ms.toFixed(0).padStart(7)} ms ${(100 * r.share).toFixed(1).padStart(5)} %  ${r.name}\n`);
      process.exit(0);
    }
    // From "running" (the page's worker has compiled the definition) to "done": the window
    // page-vs-command.ts times, without the page's own loading.
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForSelector('[data-testid="run-progress"][data-status="running"], [data-testid="run-progress"][data-status="done"]', { timeout: 120_000, state: 'attached' });
    await cdp.send('Profiler.start');
    if ((await page.getByTestId('run-progress').getAttribute('data-status')) === 'done') {
      // Too quick to catch "running": profile the whole visit instead (the page's loading included).
      process.stdout.write(`${trace}: the analysis ended before the profiler started; profiling the whole visit\n`);
      await page.goto(`${base}/`);
      await cdp.send('Profiler.start');
      await page.goto(url);
    }
    await page.waitForSelector('[data-testid="run-progress"][data-status="done"]', { timeout: 600_000, state: 'attached' });
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Parameters<typeof selfTimes>[0] };
    writeFileSync(out, JSON.stringify(profile));
    process.stdout.write(`${trace}: main-thread profile in ${out}\n`);
    for (const r of selfTimes(profile).slice(0, 40)) process.stdout.write(`${r.ms.toFixed(0).padStart(7)} ms ${(100 * r.share).toFixed(1).padStart(5)} %  ${r.name}\n`);
  } finally {
    await browser.close();
  }
} finally {
  preview.kill();
}
