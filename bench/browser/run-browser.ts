/**
 * `npm run bench:browser`: the workbench in headless Chromium (Playwright), against the built page
 * served by `vite preview`:
 *  1. the 200-case stochastic RAG analysis and the 400-case eight-step agent (opened with
 *     `?trace=`, which starts the analysis) with one analysis worker and with one per core
 *     (`?workers=N`): wall time and the speed-up;
 *     and, since the workers start as the page opens and compile before "running", the time
 *     from the navigation to "done" and the browser's CPU time, for both;
 *  2. main-thread long tasks (PerformanceObserver 'longtask', > 50 ms) while it runs;
 *  3. the import time of a generated ~50 MB, 10 000-case trace opened with the file picker, and
 *     the long tasks while the page analyses all of it (every case in the list);
 *  4. the page's single-worker throughput against the command's on the same cases, and the page's
 *     main-thread time per case (page-vs-command.ts); `--only page-vs-command` runs this alone;
 *  5. the first page's transfer, bytes on the wire with an empty cache (first-page.ts; the in-page
 *     model's library and wasm must not be among them); `--only first-page` runs this alone.
 * Writes the figures into the `browser` section of bench/results.json.
 *
 *   npm run bench:browser                 # builds first
 *   npm run bench:browser -- --no-build   # reuse dist/
 *   npm run bench:browser -- --runs 1 --cases 2000 --megabytes 5   # smaller
 *   npm run bench:browser -- --only first-page --dist OTHER-BUILD   # another build's first page (e.g. before a change)
 *   npm run bench:browser -- --no-build --dist dist-x --port 5370   # another build, served on a given port
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'node:net';
import { chromium, type Browser, type Page } from '@playwright/test';
import { median } from '../lib/measure.ts';
import { largeTraceText } from './large-trace.ts';
import { CHROMIUM_ARGS } from './chromium-args.ts';
import { sampleDescendantsCpu } from './process-cpu.ts';
import { assertPortFree } from './port-free.ts';
import { pageVsCommand, pageVsCommandLine, type PageVsCommand } from './page-vs-command.ts';
import { firstPageLine, firstPageTransfer } from './first-page.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const RESULTS = resolve(ROOT, 'bench/results.json');

/** Installed before any page script: records long tasks and when the run's status changes. */
const INIT_SCRIPT = `
  window.__bench = { longTasks: [], status: [] };
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__bench.longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch (e) { window.__bench.noLongTaskApi = String(e); }
  const seen = new WeakMap();
  const watch = () => {
    const el = document.querySelector('[data-testid="run-progress"]');
    if (!el) return;
    const s = el.getAttribute('data-status');
    if (seen.get(el) !== s) { seen.set(el, s); window.__bench.status.push({ status: s, at: performance.now() }); }
  };
  new MutationObserver(watch).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-status'] });
`;

interface Args {
  build: boolean;
  runs: number;
  cases: number;
  megabytes: number;
  timeoutMs: number;
  /** Only this part ('page-vs-command'), or everything. */
  only: 'page-vs-command' | 'first-page' | null;
  /** Serve this build folder instead of dist/ (no build). */
  dist: string | null;
  /** Serve on this loopback port (a shared machine gives each user a range), else any free one. */
  port: number | null;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { build: true, runs: 3, cases: 10_000, megabytes: 50, timeoutMs: 600_000, only: null, dist: null, port: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const num = () => {
      const v = Number(argv[++i]);
      if (!(v > 0)) throw new Error(`${a} needs a positive number`);
      return v;
    };
    if (a === '--no-build') args.build = false;
    else if (a === '--runs') args.runs = num();
    else if (a === '--cases') args.cases = num();
    else if (a === '--megabytes') args.megabytes = num();
    else if (a === '--timeout') args.timeoutMs = num() * 1000;
    else if (a === '--port') args.port = num();
    else if (a === '--dist') {
      args.dist = resolve(argv[++i] ?? '');
      args.build = false;
    } else if (a === '--only') {
      if (argv[i + 1] !== 'page-vs-command' && argv[i + 1] !== 'first-page') throw new Error('--only takes page-vs-command or first-page');
      args.only = argv[++i] as 'page-vs-command' | 'first-page';
    }
    else throw new Error(`unknown argument ${a}`);
  }
  return args;
}

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => res(port));
    });
    srv.on('error', rej);
  });
}

async function startPreview(port: number, outDir: string): Promise<ChildProcess> {
  await assertPortFree(port);
  const child = spawn(process.execPath, [resolve(ROOT, 'node_modules/vite/bin/vite.js'), 'preview', '--outDir', outDir, '--port', String(port), '--strictPort', '--host', '127.0.0.1'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`vite preview exited with code ${child.exitCode}`);
    try {
      const r = await fetch(`http://127.0.0.1:${port}/`);
      if (r.ok) return child;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill();
  throw new Error('vite preview did not answer within 30 s');
}

interface RunFigures {
  workers: number;
  /** Status "running" to "done". */
  wallMs: number;
  /**
   * Navigation start to "done" (recorded runs only, NaN for the posterior re-run): the workers
   * start and compile before "running", so this is the figure that shows whether work was only
   * moved out of the analysis window.
   */
  openToDoneMs: number;
  /** CPU time of the browser's processes from the navigation to "done", and from "running" to "done" (NaN without /proc). */
  cpuMs: number;
  analysisCpuMs: number;
  longTasks: number;
  longestTaskMs: number;
  longTaskTotalMs: number;
}

/**
 * Open the RAG demo trace with N workers; the page analyses it at once (recorded mode). Times
 * running -> done. With `posterior`, it then switches to posterior mode (8 abducted worlds, about
 * eight times the work) and times that run instead: recorded mode is so little work (~0.1 s of
 * CPU) that fixed costs, not the workers, decide its wall time.
 */
async function ragRun(browser: Browser, base: string, workers: number, timeoutMs: number, mode: 'recorded' | 'posterior' = 'recorded', trace = 'stochastic-rag'): Promise<RunFigures> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.addInitScript(INIT_SCRIPT);
  const cpu = sampleDescendantsCpu();
  try {
    const opened = Date.now();
    await page.goto(`${base}/?trace=demos/${trace}.trace.json&workers=${workers}`);
    await page.waitForSelector('[data-testid="run-progress"][data-status="done"]', { timeout: timeoutMs });
    if (mode === 'posterior') {
      await page.evaluate('window.__bench.status = []; window.__bench.longTasks = []');
      await page.getByLabel('Mode', { exact: true }).selectOption('posterior');
      // The status log catches even a run too short for a selector poll to see it running.
      await page.waitForFunction(
        () => {
          const log = (window as unknown as { __bench: { status: { status: string }[] } }).__bench.status;
          return log.some((s) => s.status === 'running') && log[log.length - 1]?.status === 'done';
        },
        undefined,
        { timeout: timeoutMs },
      );
    }
    const bench = (await page.evaluate('window.__bench')) as { longTasks: { start: number; duration: number }[]; status: { status: string; at: number }[]; noLongTaskApi?: string };
    if (bench.noLongTaskApi) throw new Error(`no long-task API: ${bench.noLongTaskApi}`);
    const start = bench.status.find((s) => s.status === 'running')?.at;
    const end = bench.status.find((s) => s.status === 'done')?.at;
    if (start === undefined || end === undefined) throw new Error(`run status not seen: ${JSON.stringify(bench.status)}`);
    const during = bench.longTasks.filter((t) => t.start + t.duration >= start && t.start <= end);
    cpu.stop();
    const origin = (await page.evaluate('performance.timeOrigin')) as number;
    return {
      workers,
      wallMs: end - start,
      openToDoneMs: mode === 'recorded' ? end : NaN,
      cpuMs: mode === 'recorded' ? cpu.at(origin + end) - cpu.at(opened) : NaN,
      analysisCpuMs: cpu.at(origin + end) - cpu.at(origin + start),
      longTasks: during.length,
      longestTaskMs: Math.max(0, ...during.map((t) => t.duration)),
      longTaskTotalMs: during.reduce((s, t) => s + t.duration, 0),
    };
  } finally {
    cpu.stop();
    await context.close();
  }
}

/** Open the large trace with the file picker; time from choosing the file to the analysis starting. */
async function importRun(browser: Browser, base: string, file: string, timeoutMs: number) {
  const context = await browser.newContext();
  const page: Page = await context.newPage();
  await page.addInitScript(INIT_SCRIPT);
  try {
    await page.goto(`${base}/`);
    const input = page.locator('input[type="file"]').first();
    await input.waitFor({ state: 'attached', timeout: 30_000 });
    const t0 = (await page.evaluate('performance.now()')) as number;
    await input.setInputFiles(file);
    await page.waitForSelector('[data-testid="run-progress"]', { timeout: timeoutMs });
    const bench = (await page.evaluate('window.__bench')) as { longTasks: { start: number; duration: number }[]; status: { status: string; at: number }[] };
    const opened = bench.status[0]?.at ?? ((await page.evaluate('performance.now()')) as number);
    const during = bench.longTasks.filter((t) => t.start + t.duration >= t0 && t.start <= opened);
    return { importMs: opened - t0, longTasks: during.length, longestTaskMs: Math.max(0, ...during.map((t) => t.duration)) };
  } finally {
    await context.close();
  }
}

/**
 * Open the large trace and let the page analyse all of it (the default pool): the main thread's
 * long tasks from the start of the analysis to its end, with every case in the list.
 */
async function largeAnalysisRun(browser: Browser, base: string, file: string, timeoutMs: number) {
  const context = await browser.newContext();
  const page: Page = await context.newPage();
  await page.addInitScript(INIT_SCRIPT);
  try {
    await page.goto(`${base}/`);
    const input = page.locator('input[type="file"]').first();
    await input.waitFor({ state: 'attached', timeout: 30_000 });
    await input.setInputFiles(file);
    await page.waitForSelector('[data-testid="run-progress"][data-status="done"]', { timeout: timeoutMs });
    const bench = (await page.evaluate('window.__bench')) as { longTasks: { start: number; duration: number }[]; status: { status: string; at: number }[] };
    const start = bench.status.find((s) => s.status === 'running')?.at;
    const end = bench.status.find((s) => s.status === 'done')?.at;
    if (start === undefined || end === undefined) throw new Error(`run status not seen: ${JSON.stringify(bench.status)}`);
    const during = bench.longTasks.filter((t) => t.start + t.duration >= start && t.start <= end);
    return { wallMs: end - start, longTasks: during.length, longestTaskMs: Math.max(0, ...during.map((t) => t.duration)), durationsMs: during.map((t) => Math.round(t.duration)) };
  } finally {
    await context.close();
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const log = (s: string) => process.stderr.write(`${s}\n`);
  if (args.build) {
    log('bench:browser: npm run build');
    const b = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
    if (b.status !== 0) throw new Error('npm run build failed');
  }
  const dist = args.dist ?? resolve(ROOT, 'dist');
  if (!existsSync(resolve(dist, 'index.html'))) throw new Error(`${dist}/index.html is missing: run npm run build (or drop --no-build)`);
  if (!existsSync(resolve(dist, 'demos/stochastic-rag.trace.json'))) throw new Error(`${dist}/demos/stochastic-rag.trace.json is missing from the build`);

  const bigDir = resolve(ROOT, 'node_modules/.cache/agentblame-bench');
  mkdirSync(bigDir, { recursive: true });
  const bigFile = resolve(bigDir, `large-${args.cases}-${args.megabytes}mb.trace.json`);
  if (args.only === null && !existsSync(bigFile)) {
    log(`bench:browser: generating ${bigFile}`);
    writeFileSync(bigFile, largeTraceText(args.cases, args.megabytes * 1_000_000));
  }
  const bigBytes = args.only === null ? readFileSync(bigFile).length : 0;

  const port = args.port ?? (await freePort());
  const preview = await startPreview(port, args.dist ?? resolve(ROOT, 'dist'));
  const base = `http://127.0.0.1:${port}`;
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const vsCommand = async (): Promise<PageVsCommand[]> => {
      const figures: PageVsCommand[] = [];
      for (const trace of ['stochastic-rag', 'eight-step-agent'] as const) figures.push(await pageVsCommand(browser, base, preview.pid ?? -1, trace, args.runs, args.timeoutMs, log));
      return figures;
    };
    if (args.only === 'first-page') {
      const firstPage = await firstPageTransfer(browser, base);
      writeBrowserSection({ firstPage: { date: new Date().toISOString(), chromium: browser.version(), ...firstPage } });
      process.stdout.write(firstPageLine(firstPage) + '\n');
      return;
    }
    if (args.only === 'page-vs-command') {
      const figures = await vsCommand();
      writeBrowserSection({ pageVsCommand: { date: new Date().toISOString(), chromium: browser.version(), loadAverage: loadavg(), traces: figures } });
      process.stdout.write([...figures.map(pageVsCommandLine), `load average at the end (1, 5, 15 min): ${loadavg().map((x) => x.toFixed(1)).join(', ')}`].join('\n') + '\n');
      return;
    }
    const cores = availableParallelism();
    const byWorkers: Record<number, RunFigures[]> = {};
    for (const workers of [...new Set([1, cores])]) {
      byWorkers[workers] = [];
      // One warm-up (caches, JIT), then the timed runs.
      await ragRun(browser, base, workers, args.timeoutMs);
      for (let r = 0; r < args.runs; r++) {
        const fig = await ragRun(browser, base, workers, args.timeoutMs);
        log(`rag with ${workers} worker(s): ${fig.wallMs.toFixed(0)} ms, ${fig.longTasks} long tasks (longest ${fig.longestTaskMs.toFixed(0)} ms)`);
        byWorkers[workers].push(fig);
      }
    }
    const summary = (figs: RunFigures[]) => ({
      wallMs: median(figs.map((f) => f.wallMs)),
      runsMs: figs.map((f) => f.wallMs),
      openToDoneMs: median(figs.map((f) => f.openToDoneMs)),
      cpuMs: median(figs.map((f) => f.cpuMs)),
      analysisCpuMs: median(figs.map((f) => f.analysisCpuMs)),
      longTasks: Math.max(...figs.map((f) => f.longTasks)),
      longestTaskMs: Math.max(...figs.map((f) => f.longestTaskMs)),
      longTaskTotalMs: median(figs.map((f) => f.longTaskTotalMs)),
    });
    const one = summary(byWorkers[1]);
    const all = summary(byWorkers[cores]);
    const heavy: Record<number, RunFigures[]> = {};
    for (const workers of [...new Set([1, cores])]) {
      heavy[workers] = [];
      for (let r = 0; r < args.runs; r++) {
        const fig = await ragRun(browser, base, workers, args.timeoutMs, 'posterior');
        log(`rag posterior (8 worlds) with ${workers} worker(s): ${fig.wallMs.toFixed(0)} ms, ${fig.longTasks} long tasks (longest ${fig.longestTaskMs.toFixed(0)} ms)`);
        heavy[workers].push(fig);
      }
    }
    const heavyOne = summary(heavy[1]);
    const heavyAll = summary(heavy[cores]);
    // The 400-case eight-step agent, exact, recorded: the second workload for the speed-up.
    const agent: Record<number, RunFigures[]> = {};
    for (const workers of [...new Set([1, cores])]) {
      agent[workers] = [];
      await ragRun(browser, base, workers, args.timeoutMs, 'recorded', 'eight-step-agent');
      for (let r = 0; r < args.runs; r++) {
        const fig = await ragRun(browser, base, workers, args.timeoutMs, 'recorded', 'eight-step-agent');
        log(`eight-step agent (400 cases) with ${workers} worker(s): ${fig.wallMs.toFixed(0)} ms, ${fig.longTasks} long tasks (longest ${fig.longestTaskMs.toFixed(0)} ms)`);
        agent[workers].push(fig);
      }
    }
    const agentOne = summary(agent[1]);
    const agentAll = summary(agent[cores]);
    const imports = [];
    for (let r = 0; r < args.runs; r++) {
      const fig = await importRun(browser, base, bigFile, args.timeoutMs);
      log(`import of ${(bigBytes / 1e6).toFixed(1)} MB: ${fig.importMs.toFixed(0)} ms, ${fig.longTasks} long tasks (longest ${fig.longestTaskMs.toFixed(0)} ms)`);
      imports.push(fig);
    }
    const large = await largeAnalysisRun(browser, base, bigFile, args.timeoutMs);
    log(`analysis of the ${args.cases}-case trace: ${large.wallMs.toFixed(0)} ms, ${large.longTasks} long tasks (longest ${large.longestTaskMs.toFixed(0)} ms)`);
    const vs = await vsCommand();
    const firstPage = await firstPageTransfer(browser, base);
    log(firstPageLine(firstPage));
    const browserSection = {
      firstPage,
      date: new Date().toISOString(),
      chromium: browser.version(),
      cores,
      ragAnalysis: { cases: 200, oneWorker: one, everyCore: { workers: cores, ...all }, speedUp: one.wallMs / all.wallMs },
      ragPosteriorAnalysis: { cases: 200, worlds: 8, oneWorker: heavyOne, everyCore: { workers: cores, ...heavyAll }, speedUp: heavyOne.wallMs / heavyAll.wallMs },
      agentAnalysis: { cases: 400, oneWorker: agentOne, everyCore: { workers: cores, ...agentAll }, speedUp: agentOne.wallMs / agentAll.wallMs },
      loadAverage: loadavg(),
      largeAnalysis: { cases: args.cases, ...large },
      pageVsCommand: { traces: vs },
      largeImport: {
        cases: args.cases,
        bytes: bigBytes,
        importMs: median(imports.map((f) => f.importMs)),
        runsMs: imports.map((f) => f.importMs),
        longTasks: Math.max(...imports.map((f) => f.longTasks)),
        longestTaskMs: Math.max(...imports.map((f) => f.longestTaskMs)),
      },
      targets: [
        {
          goal: `RAG 200 cases and 8-step agent 400 cases >= 1.6x faster with ${cores} workers than 1`,
          measured: `RAG ${(one.wallMs / all.wallMs).toFixed(2)}x recorded (${one.wallMs.toFixed(0)} ms of work), ${(heavyOne.wallMs / heavyAll.wallMs).toFixed(2)}x posterior, 8 worlds; agent ${(agentOne.wallMs / agentAll.wallMs).toFixed(2)}x`,
          met: Math.max(one.wallMs / all.wallMs, heavyOne.wallMs / heavyAll.wallMs) >= 1.6 && agentOne.wallMs / agentAll.wallMs >= 1.6,
        },
        {
          goal: 'page throughput with 1 worker >= 0.8x the command with 1 worker, same cases, same run',
          measured: vs.map((f) => `${f.trace} ${f.ratio.toFixed(2)}x`).join(', '),
          met: vs.every((f) => f.ratio >= 0.8),
        },
        {
          goal: 'no main-thread task over 50 ms during the analysis',
          measured: `${Math.max(one.longTasks, all.longTasks, heavyOne.longTasks, heavyAll.longTasks, agentOne.longTasks, agentAll.longTasks)} long tasks, longest ${Math.max(one.longestTaskMs, all.longestTaskMs, heavyOne.longestTaskMs, heavyAll.longestTaskMs, agentOne.longestTaskMs, agentAll.longestTaskMs).toFixed(0)} ms; with ${args.cases} cases in the list ${large.longTasks} (longest ${large.longestTaskMs.toFixed(0)} ms)`,
          met: one.longTasks + all.longTasks + heavyOne.longTasks + heavyAll.longTasks + agentOne.longTasks + agentAll.longTasks + large.longTasks === 0,
        },
      ],
    };
    const openLine = (name: string, a: ReturnType<typeof summary>, b: ReturnType<typeof summary>) =>
      `${name}, page open to done: 1 worker ${a.openToDoneMs.toFixed(0)} ms; ${cores} workers ${b.openToDoneMs.toFixed(0)} ms` +
      ` (browser CPU from open ${a.cpuMs.toFixed(0)} / ${b.cpuMs.toFixed(0)} ms, of which running to done ${a.analysisCpuMs.toFixed(0)} / ${b.analysisCpuMs.toFixed(0)} ms)`;
    const lines = [
      `stochastic RAG, 200 cases: 1 worker ${one.wallMs.toFixed(0)} ms; ${cores} workers ${all.wallMs.toFixed(0)} ms; speed-up ${(one.wallMs / all.wallMs).toFixed(2)}x`,
      openLine('stochastic RAG', one, all),
      `stochastic RAG, 200 cases, posterior with 8 worlds: 1 worker ${heavyOne.wallMs.toFixed(0)} ms; ${cores} workers ${heavyAll.wallMs.toFixed(0)} ms; speed-up ${(heavyOne.wallMs / heavyAll.wallMs).toFixed(2)}x`,
      `eight-step agent, 400 cases: 1 worker ${agentOne.wallMs.toFixed(0)} ms; ${cores} workers ${agentAll.wallMs.toFixed(0)} ms; speed-up ${(agentOne.wallMs / agentAll.wallMs).toFixed(2)}x`,
      openLine('eight-step agent', agentOne, agentAll),
      `load average at the end (1, 5, 15 min): ${loadavg().map((x) => x.toFixed(1)).join(', ')} on ${cores} cores`,
      `main-thread long tasks during the analysis: 1 worker ${Math.max(one.longTasks, heavyOne.longTasks)} (longest ${Math.max(one.longestTaskMs, heavyOne.longestTaskMs).toFixed(0)} ms), ${cores} workers ${Math.max(all.longTasks, heavyAll.longTasks)} (longest ${Math.max(all.longestTaskMs, heavyAll.longestTaskMs).toFixed(0)} ms)`,
      `analysis of the ${args.cases}-case trace (default pool): ${large.wallMs.toFixed(0)} ms, long tasks ${large.longTasks} (longest ${large.longestTaskMs.toFixed(0)} ms)`,
      `import of a ${(bigBytes / 1e6).toFixed(1)} MB, ${args.cases}-case trace: ${browserSection.largeImport.importMs.toFixed(0)} ms (long tasks ${browserSection.largeImport.longTasks}, longest ${browserSection.largeImport.longestTaskMs.toFixed(0)} ms)`,
      ...vs.map(pageVsCommandLine),
      ...browserSection.targets.map((t) => `${t.met ? '[met]' : '[MISSED]'} ${t.goal}: ${t.measured}`),
    ];
    process.stdout.write(lines.join('\n') + '\n');
    writeBrowserSection(browserSection);
  } finally {
    await browser.close();
    preview.kill();
  }
}

/** Writes (or, with --only, merges into) the browser section of bench/results.json. */
function writeBrowserSection(section: Record<string, unknown>): void {
  let results: Record<string, unknown> = {};
  if (existsSync(RESULTS)) {
    try {
      results = JSON.parse(readFileSync(RESULTS, 'utf8'));
    } catch {
      results = {};
    }
  }
  const earlier = results.browser;
  const merged = Object.keys(section).length === 1 && ('pageVsCommand' in section || 'firstPage' in section);
  results.browser = typeof earlier === 'object' && earlier !== null && merged ? { ...earlier, ...section } : section;
  writeFileSync(RESULTS, JSON.stringify(results, null, 2) + '\n');
  process.stderr.write(`wrote the browser section of ${RESULTS}\n`);
}

main().catch((e) => {
  process.stderr.write(`bench:browser: ${e instanceof Error ? e.stack ?? e.message : e}\n`);
  process.exitCode = 1;
});
