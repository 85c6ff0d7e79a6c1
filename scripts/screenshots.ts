/**
 * The screenshots in docs/images/, retaken from a served build:
 *   npm run build -- --outDir dist-shot && npx vite preview --outDir dist-shot --port 4180 &
 *   npx tsx scripts/screenshots.ts http://127.0.0.1:4180/            (all of them)
 *   npx tsx scripts/screenshots.ts http://127.0.0.1:4180/ run-jaeger (only the ones named)
 * Shots of real traces read them from the shared samples (`../shared/samples`, or
 * `$AGENTBLAME_SHARED/samples`); when those are absent the shot is skipped with a message and the
 * PNG already in docs/images/ stays. Only samples whose licence allows it are shown (see
 * ../shared/samples/SOURCES.md), never Who&When. Uses Debian's Chromium, as the browser tests do.
 *
 * To add a shot, add an entry to SHOTS: its file name, what it shows, the samples it needs and how
 * to bring the page to the state to take.
 */
import { chromium, type Page } from '@playwright/test';
import { startFakeEndpoint } from '../src/model/testing/fake-endpoint.ts';
import { scriptedModel } from '../src/replay/testing/runs.ts';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';

const IMAGES = join(import.meta.dirname, '../docs/images');
const SAMPLES = join(process.env.AGENTBLAME_SHARED ?? join(import.meta.dirname, '../../shared'), 'samples');

interface Shot {
  /** The PNG's name in docs/images/, without .png; also its name on the command line. */
  name: string;
  /** What it shows (printed as it is taken). */
  shows: string;
  /** Paths under the shared samples it reads; the shot is skipped when one is missing. */
  samples: string[];
  viewport: { width: number; height: number };
  /** Brings the page (at the build's address) to what the picture shows. */
  take: (page: Page, base: string) => Promise<void>;
}

/** Opens sample files in the page as a dropped file would be. */
async function dropSamples(page: Page, paths: string[]): Promise<void> {
  const files = paths.map((p) => ({ name: basename(p), content: readFileSync(join(SAMPLES, p), 'utf8') }));
  const transfer = await page.evaluateHandle((list) => {
    const data = new DataTransfer();
    for (const f of list) data.items.add(new File([f.content], f.name, { type: 'application/json' }));
    return data;
  }, files);
  await page.dispatchEvent('main', 'dragenter', { dataTransfer: transfer });
  await page.dispatchEvent('main', 'drop', { dataTransfer: transfer });
}

/**
 * Prices as a user would type them in the run view's Prices panel (OpenAI's list prices per 1M
 * tokens for the samples' models), so the pictures show costs beside the tokens.
 */
const PRICES = { 'gpt-4.1-mini': { input: 0.4, output: 1.6 }, 'gpt-4.1-2025-04-14': { input: 2, output: 8 } };

/** Opens one sample's run view and selects the first step whose name contains `step`. */
async function runView(page: Page, base: string, sample: string, step: string): Promise<void> {
  await page.addInitScript((prices) => localStorage.setItem('agentblame.model-prices', JSON.stringify({ version: 1, prices })), PRICES);
  await page.goto(base);
  await dropSamples(page, [sample]);
  const run = page.getByRole('region', { name: /^Run / });
  await run.waitFor({ timeout: 60_000 });
  // The file is kept in this browser after it opens; its "Checking ..." line goes once that is done.
  await page.getByRole('status').filter({ hasText: /^(Reading|Checking) / }).waitFor({ state: 'detached', timeout: 60_000 });
  await run.getByRole('listbox', { name: 'Steps' }).getByRole('option').filter({ hasText: step }).first().click();
  await page.evaluate(() => window.scrollTo(0, 0));
}

/**
 * The README's worked example blamed in the page (docs/examples/replay/: the Langfuse export and its
 * tool stubs) against the example's scripted model on a loopback port (SHOT_MODEL_PORT, else any
 * free one), then the Replay view's "Recorded beside replayed" with every fix, the calculator's
 * request open.
 */
async function factualReplayed(page: Page, base: string): Promise<void> {
  const example = (name: string) => readFileSync(join(import.meta.dirname, '../docs/examples/replay', name), 'utf8');
  const endpoint = await startFakeEndpoint({ answer: scriptedModel, models: ['gpt-test', 'fake-model'], port: Number(process.env.SHOT_MODEL_PORT ?? 0) });
  try {
    await page.goto(base);
    const transfer = await page.evaluateHandle((content) => {
      const data = new DataTransfer();
      data.items.add(new File([content], 'multiply.langfuse.json', { type: 'application/json' }));
      return data;
    }, example('multiply.langfuse.json'));
    await page.dispatchEvent('main', 'dragenter', { dataTransfer: transfer });
    await page.dispatchEvent('main', 'drop', { dataTransfer: transfer });
    await page.getByRole('button', { name: 'Blame this run' }).click();
    const setup = page.getByRole('region', { name: 'Blame this run' });
    await setup.getByLabel('Tool stubs').setInputFiles({ name: 'tools.js', mimeType: 'text/javascript', buffer: Buffer.from(example('tools.js')) });
    await setup.getByLabel('The final answer contains').fill('42');
    await page.getByLabel('Base URL').fill(endpoint.url);
    await page.getByLabel('Base URL').dispatchEvent('change');
    await setup.getByRole('button', { name: 'Blame', exact: true }).click();
    await page.getByTestId('run-progress').and(page.locator('[data-status="done"]')).waitFor({ timeout: 120_000 });
    await page.getByRole('tab', { name: 'Replay' }).click();
    const view = page.getByRole('group', { name: 'Recorded beside replayed' });
    await view.getByLabel('Replay of').selectOption('all');
    const calculator = view.locator('li.turn').filter({ has: page.locator('.title', { hasText: 'Calculator' }) });
    await calculator.locator('summary').click();
    await page.evaluate(() => document.querySelector('[aria-label="Recorded beside replayed"]')?.scrollIntoView({ block: 'start' }));
  } finally {
    await endpoint.close();
  }
}

const JAEGER = 'otel-genai/variants/agentevals_kagent_helm.jaeger.json';
const LANGFUSE = 'langfuse/langfuse-repo_openai-agents-2025-09-30.trace.json';

const SHOTS: Shot[] = [
  {
    name: 'workbench',
    shows: 'the workbench with the stochastic-rag demo analysed, its batch view',
    samples: [],
    viewport: { width: 1280, height: 800 },
    async take(page, base) {
      await page.goto(new URL('?trace=demos/stochastic-rag.trace.json', base).href);
      await page.getByTestId('run-progress').and(page.locator('[data-status="done"]')).waitFor({ timeout: 180_000 });
      await page.getByTestId('batch-headline').waitFor();
    },
  },
  {
    name: 'run-jaeger',
    shows: 'the run view of a real Jaeger export (kagent helm agent, 96 spans; Apache-2.0, agentevals-dev/agentevals)',
    samples: [JAEGER],
    viewport: { width: 1400, height: 860 },
    async take(page, base) {
      await runView(page, base, JAEGER, 'openai.chat');
    },
  },
  {
    name: 'factual-replayed',
    shows: "the Replay view's recorded beside replayed, the README's worked example with every fix (our own example, a scripted model)",
    samples: [],
    viewport: { width: 1280, height: 900 },
    take: factualReplayed,
  },
  {
    name: 'run-langfuse',
    shows: 'the run view of a real Langfuse export (OpenAI Agents SDK; MIT, langfuse/langfuse)',
    samples: [LANGFUSE],
    viewport: { width: 1400, height: 860 },
    async take(page, base) {
      await runView(page, base, LANGFUSE, 'response');
    },
  },
];

const [base, ...only] = process.argv.slice(2);
if (!base) {
  process.stderr.write(`usage: npx tsx scripts/screenshots.ts BASE_URL [${SHOTS.map((s) => s.name).join(' | ')} ...]\n`);
  process.exit(2);
}
const unknown = only.filter((n) => !SHOTS.some((s) => s.name === n));
if (unknown.length > 0) {
  process.stderr.write(`no such shot: ${unknown.join(', ')} (shots: ${SHOTS.map((s) => s.name).join(', ')})\n`);
  process.exit(2);
}
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
try {
  for (const shot of SHOTS.filter((s) => only.length === 0 || only.includes(s.name))) {
    const missing = shot.samples.filter((p) => !existsSync(join(SAMPLES, p)));
    if (missing.length > 0) {
      process.stdout.write(`skipped ${shot.name}: ${missing.map((p) => join(SAMPLES, p)).join(', ')} not found (set AGENTBLAME_SHARED to the shared folder)\n`);
      continue;
    }
    const page = await browser.newPage({ viewport: shot.viewport, colorScheme: 'light' });
    try {
      await shot.take(page, base);
      const out = join(IMAGES, `${shot.name}.png`);
      await page.screenshot({ path: out });
      process.stdout.write(`${out} (${Math.round(statSync(out).size / 1024)} KB): ${shot.shows}\n`);
    } finally {
      await page.close();
    }
  }
} finally {
  await browser.close();
}
